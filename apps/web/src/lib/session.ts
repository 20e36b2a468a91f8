import type { SessionState } from "@moonport/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "./api.ts";

/**
 * `SessionState` checked by hand rather than by its zod schema: every public page asks this, and the schema would
 * bring zod's runtime (about 100 KB) into pages that otherwise never need it.
 */
const sessionState = {
  parse(value: unknown): SessionState {
    const signedIn = (value as { signedIn?: unknown } | null)?.signedIn;
    if (typeof signedIn !== "boolean") throw new Error("unexpected /api/auth/session answer");
    return { signedIn };
  },
};

/** App-wide session state (public pages and the auth pages both ask it), so it lives outside any feature. */
export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: ["session"],
    queryFn: ({ signal }) => api("/api/auth/session", { schema: sessionState, signal }),
    staleTime: 30_000,
  });

/**
 * Whether the visitor is signed in, for public pages: true/false once known, undefined while asking (and in
 * prerendered HTML, which is the same for everyone and so shows the signed-out header).
 */
export function useSignedIn(): boolean | undefined {
  return useQuery(sessionQueryOptions()).data?.signedIn;
}
