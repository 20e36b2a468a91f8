import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api("/api/auth/signout", { method: "POST" }),
    onSuccess: () => queryClient.clear(),
  });
}
