import { useParams } from "react-router";
import { QueuesScreen } from "../../../src/features/admin/components/queues-screen.tsx";

export default function AdminQueuesRoute() {
  return <QueuesScreen tab={useParams().tab} />;
}
