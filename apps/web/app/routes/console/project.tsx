import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { useCurrentOrg } from "../../../src/components/console-kit/current-org.ts";
import { EmptyState } from "../../../src/components/console-kit/states.tsx";
import { ApiKeysPanel } from "../../../src/features/keys/components/api-keys-panel.tsx";
import { ProjectScreen } from "../../../src/features/projects/components/project-screen.tsx";
import { PROJECT_TABS, paths, tabFrom } from "../../../src/lib/paths.ts";

/** One project; its API keys tab is the keys feature's panel, fixed to the project. */
export default function ProjectRoute() {
  const { projectId = "", tab } = useParams();
  const navigate = useNavigate();
  const org = useCurrentOrg();
  const { t } = useTranslation("org");
  if (!org) return <EmptyState title={t("pages.noOrg")} />;
  return (
    <ProjectScreen
      key={`${org.id}/${projectId}`}
      orgId={org.id}
      orgRole={org.role}
      currency={org.currency}
      projectId={projectId}
      tab={tabFrom(PROJECT_TABS, tab)}
      onTab={(next) => navigate(paths.project(projectId, next))}
      apiKeysTab={(project) => (
        <ApiKeysPanel orgId={org.id} role={org.role} projectId={project.id} readOnly={project.status === "archived"} />
      )}
    />
  );
}
