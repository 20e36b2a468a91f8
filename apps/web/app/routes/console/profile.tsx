import { useConsoleUser } from "../../../src/components/console-kit/console-user.ts";
import { ProfilePage } from "../../../src/features/profile/components/profile-page.tsx";

export default function ProfileRoute() {
  return <ProfilePage me={useConsoleUser()} />;
}
