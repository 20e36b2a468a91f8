import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { EmptyState } from "../../../src/features/org/components/states.tsx";
import { useCurrentOrg } from "../../../src/features/org/current-org.ts";
import { PROJECT_TABS, ProjectScreen, type ProjectTab } from "../../../src/features/org/screens/project-screen.tsx";

export default function ProjectRoute() {
  const { projectId = "", tab } = useParams();
  const navigate = useNavigate();
  const org = useCurrentOrg();
  const { t } = useTranslation("org");
  if (!org) return <EmptyState title={t("pages.noOrg")} />;
  const current: ProjectTab = (PROJECT_TABS as readonly string[]).includes(tab ?? "")
    ? (tab as ProjectTab)
    : "overview";
  return (
    <ProjectScreen
      key={`${org.id}/${projectId}`}
      orgId={org.id}
      orgRole={org.role}
      currency={org.currency}
      projectId={projectId}
      tab={current}
      onTab={(next) => navigate(`/console/projects/${projectId}/${next}`)}
    />
  );
}
