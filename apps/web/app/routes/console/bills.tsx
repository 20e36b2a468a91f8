import { BillDetailsScreen } from "../../../src/features/bills/components/bill-details-screen.tsx";
import { BillsPage } from "../../../src/features/bills/components/bills-page.tsx";

export default function BillsRoute() {
  return (
    <BillsPage page="details">
      {(org) => <BillDetailsScreen key={org.id} orgId={org.id} timeZone={org.timeZone} />}
    </BillsPage>
  );
}
