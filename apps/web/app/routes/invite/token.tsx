import { useNavigate, useParams } from "react-router";
import { useMe } from "../../../src/features/auth/api/get-me.ts";
import { useSignOut } from "../../../src/features/auth/api/sign-out.ts";
import { InviteScreen, type InviteSession } from "../../../src/features/members/components/invite-screen.tsx";
import { paths } from "../../../src/lib/paths.ts";

/** /invite/:token — outside the console shell: the invitee may not be signed in yet, or signed in as someone else. */
export default function InviteRoute() {
  const token = useParams().token ?? "";
  const navigate = useNavigate();
  const me = useMe();
  const signOut = useSignOut();
  const session: InviteSession = me.isPending
    ? { state: "pending" }
    : me.data
      ? {
          state: "signedIn",
          name: me.data.username ?? me.data.phoneMasked ?? me.data.id,
          phoneMasked: me.data.phoneMasked,
        }
      : // Any failure to read the session (401 or the server unreachable) leaves the visitor signed out here.
        { state: "signedOut" };
  return (
    <InviteScreen
      token={token}
      session={session}
      switching={signOut.isPending}
      onSwitchAccount={() =>
        signOut.mutate(undefined, { onSettled: () => navigate(paths.signIn(paths.invite(token)), { replace: true }) })
      }
    />
  );
}
