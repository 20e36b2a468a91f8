import { SignInPage } from "../../../src/features/auth/components/sign-in-page.tsx";

export default function SignInRoute() {
  return <SignInPage />;
}
