import { SignUpPage } from "../../../src/features/auth/components/sign-up-page.tsx";

export default function SignUpRoute() {
  return <SignUpPage />;
}
