import { OrgScreen } from "../../../src/features/org/components/screen.tsx";
import { ApiKeysPanel } from "../../../src/features/org/screens/api-keys-panel.tsx";

export default function ApiKeysRoute() {
  return <OrgScreen page="apiKeys">{(org) => <ApiKeysPanel key={org.id} orgId={org.id} role={org.role} />}</OrgScreen>;
}
