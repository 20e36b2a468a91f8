import { OrgScreen } from "../../../src/components/console-kit/org-screen.tsx";
import { LimitsPanel } from "../../../src/features/usage/components/limits-panel.tsx";

export default function LimitsRoute() {
  return <OrgScreen page="limits">{(org) => <LimitsPanel key={org.id} orgId={org.id} />}</OrgScreen>;
}
