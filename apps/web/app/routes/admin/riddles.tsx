import { RiddlesScreen } from "../../../src/features/admin/components/riddles-screen.tsx";

export default function AdminRiddlesRoute() {
  return <RiddlesScreen />;
}
