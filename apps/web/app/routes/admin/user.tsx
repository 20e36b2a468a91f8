import { useParams } from "react-router";
import { UserScreen } from "../../../src/features/admin/components/users-screen.tsx";

export default function AdminUserRoute() {
  const { userId } = useParams();
  return <UserScreen key={userId} userId={userId!} />;
}
