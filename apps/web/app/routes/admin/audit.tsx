import { AuditScreen } from "../../../src/features/admin/components/audit-screen.tsx";

export default function AdminAuditScreenRoute() {
  return <AuditScreen />;
}
