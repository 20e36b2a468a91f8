import { useParams } from "react-router";
import { InviteScreen } from "../../../src/features/org/screens/invite-screen.tsx";

/** /invite/:token — outside the console shell: the invitee may not be signed in yet. */
export default function InviteRoute() {
  return <InviteScreen token={useParams().token ?? ""} />;
}
