import { useNavigate, useParams } from "react-router";
import { OrgScreen } from "../../../src/components/console-kit/org-screen.tsx";
import { ApiKeysPanel } from "../../../src/features/keys/components/api-keys-panel.tsx";
import { MembersPanel } from "../../../src/features/members/components/members-panel.tsx";
import { useSetCurrentOrg } from "../../../src/features/orgs/api/set-current-org.ts";
import { OrganizationScreen } from "../../../src/features/orgs/components/organization-screen.tsx";
import { ProjectsPanel } from "../../../src/features/projects/components/projects-panel.tsx";
import { LimitsPanel } from "../../../src/features/usage/components/limits-panel.tsx";
import { ORG_TABS, paths, tabFrom } from "../../../src/lib/paths.ts";

/** The organization screen; its tabs come from the features that own them. */
export default function OrganizationRoute() {
  const { tab } = useParams();
  const navigate = useNavigate();
  const setCurrent = useSetCurrentOrg();
  return (
    <OrgScreen page="organization">
      {(org) => (
        <OrganizationScreen
          key={org.id}
          orgId={org.id}
          tab={tabFrom(ORG_TABS, tab)}
          onTab={(next) => navigate(paths.organization(next))}
          onOrgCreated={(orgId) => setCurrent.mutate({ orgId })}
          panels={{
            members: () => <MembersPanel orgId={org.id} />,
            projects: (role) => <ProjectsPanel orgId={org.id} role={role} />,
            "api-keys": (role) => <ApiKeysPanel orgId={org.id} role={role} />,
            limits: () => <LimitsPanel orgId={org.id} />,
          }}
        />
      )}
    </OrgScreen>
  );
}
