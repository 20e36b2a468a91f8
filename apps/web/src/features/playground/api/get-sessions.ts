import { PlaygroundSession, PlaygroundSessionPage } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { playgroundApi, playgroundKeys } from "./query-keys.ts";

/** GET …/playground/sessions: the caller's saved sessions in the project, latest first. */
export const sessionsQuery = (orgId: string, projectId: string) =>
  queryOptions({
    queryKey: playgroundKeys.sessions(orgId, projectId),
    queryFn: () =>
      api(`${playgroundApi(orgId, projectId)}/sessions?page=1&pageSize=100`, { schema: PlaygroundSessionPage }),
  });

/** GET …/playground/sessions/:id */
export const fetchSession = (orgId: string, projectId: string, id: string) =>
  api(`${playgroundApi(orgId, projectId)}/sessions/${encodeURIComponent(id)}`, { schema: PlaygroundSession });
