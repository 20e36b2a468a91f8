import { SetupPage } from "../../../src/features/auth/components/setup-page.tsx";

export default function SetupRoute() {
  return <SetupPage />;
}
