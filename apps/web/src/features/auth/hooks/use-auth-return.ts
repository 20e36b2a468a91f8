import { useNavigate, useSearchParams } from "react-router";
import { safeNext } from "../../../lib/forms.ts";

/**
 * Where the sign-in and sign-up pages send the user afterwards (`?next=`, checked to stay on this site), and the
 * link to the other page that keeps it, so switching between the two never loses the way back.
 */
export function useAuthReturn(otherPage: "/signin" | "/signup") {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get("next"));
  return {
    next,
    onDone: () => navigate(next, { replace: true }),
    otherHref: params.get("next") ? `${otherPage}?next=${encodeURIComponent(next)}` : otherPage,
  };
}
