import { CodesScreen } from "../../../src/features/admin/components/codes-screen.tsx";

export default function AdminCodesScreenRoute() {
  return <CodesScreen />;
}
