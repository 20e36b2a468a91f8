import { OrganizationsScreen } from "../../../src/features/admin/components/organizations-screen.tsx";

export default function AdminOrganizationsScreenRoute() {
  return <OrganizationsScreen />;
}
