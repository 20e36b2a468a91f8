import { OrgScreen } from "../../../src/components/console-kit/org-screen.tsx";
import { OverviewScreen } from "../../../src/features/usage/components/overview-screen.tsx";

export default function OverviewRoute() {
  return <OrgScreen page="overview">{(org) => <OverviewScreen orgId={org.id} key={org.id} />}</OrgScreen>;
}
