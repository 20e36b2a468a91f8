import { OrgScreen } from "../../../src/features/org/components/screen.tsx";
import { LimitsPanel } from "../../../src/features/org/screens/limits-panel.tsx";

export default function LimitsRoute() {
  return <OrgScreen page="limits">{(org) => <LimitsPanel key={org.id} orgId={org.id} />}</OrgScreen>;
}
