import { OrgScreen } from "../../../src/components/console-kit/org-screen.tsx";
import { ProjectsPanel } from "../../../src/features/projects/components/projects-panel.tsx";

export default function ProjectsRoute() {
  return (
    <OrgScreen page="projects">{(org) => <ProjectsPanel key={org.id} orgId={org.id} role={org.role} />}</OrgScreen>
  );
}
