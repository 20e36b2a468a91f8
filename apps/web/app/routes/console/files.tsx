import { FilesScreen } from "../../../src/features/files/components/files-screen.tsx";

export default function FilesRoute() {
  return <FilesScreen />;
}
