import { useParams } from "react-router";
import { OrganizationScreen } from "../../../src/features/admin/components/organization-screen.tsx";

export default function AdminOrganizationRoute() {
  const { orgId } = useParams();
  return <OrganizationScreen key={orgId} orgId={orgId!} />;
}
