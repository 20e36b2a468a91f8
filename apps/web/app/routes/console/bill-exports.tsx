import { BillsPage } from "../../../src/features/bills/components/bills-page.tsx";
import { ExportsScreen } from "../../../src/features/bills/components/exports-screen.tsx";

export default function BillExportsRoute() {
  return <BillsPage page="exports">{(org) => <ExportsScreen key={org.id} orgId={org.id} />}</BillsPage>;
}
