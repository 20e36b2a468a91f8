import { OrgScreen } from "../../../src/components/console-kit/org-screen.tsx";
import { ConsumptionScreen } from "../../../src/features/usage/components/consumption-screen.tsx";

export default function ConsumptionRoute() {
  return (
    <OrgScreen page="consumption">
      {(org) => <ConsumptionScreen key={org.id} orgId={org.id} timeZone={org.timeZone} />}
    </OrgScreen>
  );
}
