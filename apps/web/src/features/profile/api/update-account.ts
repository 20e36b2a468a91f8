import type { BindPhoneRequest, ChangePasswordRequest, ChangeUsernameRequest } from "@moonport/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { meQueryOptions } from "../../auth/api/get-me.ts";

/** The three account changes of the profile screen; each refreshes `me` (and its sessions) afterwards. */
function useAccountMutation<T>(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: T) => api(path, { method: "PUT", body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
  });
}

export const useChangeUsername = () => useAccountMutation<ChangeUsernameRequest>("/api/me/username");
export const useChangePassword = () => useAccountMutation<ChangePasswordRequest>("/api/me/password");
export const useBindPhone = () => useAccountMutation<BindPhoneRequest>("/api/me/phone");
