import { MeWithOrgs } from "@moonport/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { meQueryOptions } from "./get-me.ts";

type SignInBody =
  | { kind: "password"; username: string; password: string }
  | { kind: "sms"; phone: string; code: string };

/** Signs in by password or SMS code; the session cookie is set by the server and `me` is primed. */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, ...body }: SignInBody) =>
      api(kind === "password" ? "/api/auth/signin" : "/api/auth/signin/sms", { body, schema: MeWithOrgs }),
    onSuccess: (me) => {
      queryClient.clear();
      queryClient.setQueryData(meQueryOptions().queryKey, me);
    },
  });
}
