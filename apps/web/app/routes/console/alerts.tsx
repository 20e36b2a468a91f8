import { AlertsScreen } from "../../../src/features/bills/components/alerts-screen.tsx";
import { BillsPage } from "../../../src/features/bills/components/bills-page.tsx";

export default function AlertsRoute() {
  return <BillsPage page="alerts">{(org) => <AlertsScreen key={org.id} orgId={org.id} />}</BillsPage>;
}
