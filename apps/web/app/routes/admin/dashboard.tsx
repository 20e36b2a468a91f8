import { DashboardScreen } from "../../../src/features/admin/components/dashboard-screen.tsx";

export default function AdminDashboardScreenRoute() {
  return <DashboardScreen />;
}
