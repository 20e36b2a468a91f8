import { UsersScreen } from "../../../src/features/admin/components/users-screen.tsx";

export default function AdminUsersScreenRoute() {
  return <UsersScreen />;
}
