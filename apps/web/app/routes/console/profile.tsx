import { useConsoleUser } from "../../../src/features/console/context.ts";
import { ProfilePage } from "../../../src/features/profile/components/profile-page.tsx";

export default function ProfileRoute() {
  return <ProfilePage me={useConsoleUser()} />;
}
