import { OrgScreen } from "../../../src/features/org/components/screen.tsx";
import { OverviewScreen } from "../../../src/features/org/screens/overview-screen.tsx";

export default function OverviewRoute() {
  return <OrgScreen page="overview">{(org) => <OverviewScreen orgId={org.id} key={org.id} />}</OrgScreen>;
}
