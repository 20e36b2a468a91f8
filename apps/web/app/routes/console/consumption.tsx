import { OrgScreen } from "../../../src/features/org/components/screen.tsx";
import { ConsumptionScreen } from "../../../src/features/org/screens/consumption-screen.tsx";

export default function ConsumptionRoute() {
  return <OrgScreen page="consumption">{(org) => <ConsumptionScreen key={org.id} orgId={org.id} />}</OrgScreen>;
}
