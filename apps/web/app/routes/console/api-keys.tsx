import { OrgScreen } from "../../../src/components/console-kit/org-screen.tsx";
import { ApiKeysPanel } from "../../../src/features/keys/components/api-keys-panel.tsx";

export default function ApiKeysRoute() {
  return <OrgScreen page="apiKeys">{(org) => <ApiKeysPanel key={org.id} orgId={org.id} role={org.role} />}</OrgScreen>;
}
