import { useNavigate, useParams } from "react-router";
import { OrgScreen } from "../../../src/features/org/components/screen.tsx";
import { ORG_TABS, OrganizationScreen, type OrgTab } from "../../../src/features/org/screens/organization-screen.tsx";
import { useSetCurrentOrg } from "../../../src/features/orgs/api/set-current-org.ts";

export default function OrganizationRoute() {
  const { tab } = useParams();
  const navigate = useNavigate();
  const setCurrent = useSetCurrentOrg();
  const current: OrgTab = (ORG_TABS as readonly string[]).includes(tab ?? "") ? (tab as OrgTab) : "general";
  return (
    <OrgScreen page="organization">
      {(org) => (
        <OrganizationScreen
          key={org.id}
          orgId={org.id}
          tab={current}
          onTab={(next) => navigate(`/console/organization/${next}`)}
          onOrgCreated={(orgId) => setCurrent.mutate({ orgId })}
        />
      )}
    </OrgScreen>
  );
}
