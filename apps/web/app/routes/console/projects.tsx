import { OrgScreen } from "../../../src/features/org/components/screen.tsx";
import { ProjectsPanel } from "../../../src/features/org/screens/projects-panel.tsx";

export default function ProjectsRoute() {
  return (
    <OrgScreen page="projects">{(org) => <ProjectsPanel key={org.id} orgId={org.id} role={org.role} />}</OrgScreen>
  );
}
