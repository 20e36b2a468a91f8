import { SessionInfo } from "@moonport/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "../../../lib/api.ts";

export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: ["me", "sessions"],
    queryFn: ({ signal }) => api("/api/me/sessions", { schema: z.array(SessionInfo), signal }),
  });

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}
