import { MeWithOrgs } from "@moonport/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { meQueryOptions } from "./get-me.ts";

type SignUpBody =
  | { kind: "phone"; phone: string; code: string; username: string; password: string; confirmPassword: string }
  | { kind: "password"; username: string; password: string; confirmPassword: string };

/** Creates the account (and its personal organization) and signs in. */
export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, ...body }: SignUpBody) =>
      api(kind === "phone" ? "/api/auth/signup/phone" : "/api/auth/signup/password", { body, schema: MeWithOrgs }),
    onSuccess: (me) => {
      queryClient.clear();
      queryClient.setQueryData(meQueryOptions().queryKey, me);
    },
  });
}
