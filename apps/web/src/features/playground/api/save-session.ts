import {
  type CreatePlaygroundSessionRequest,
  OkResponse,
  PlaygroundSession,
  type UpdatePlaygroundSessionRequest,
} from "@moonport/contracts";
import { useInvalidatingMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { playgroundApi, playgroundKeys } from "./query-keys.ts";

/** POST …/playground/sessions */
export const createSession = (orgId: string, projectId: string, body: CreatePlaygroundSessionRequest) =>
  api(`${playgroundApi(orgId, projectId)}/sessions`, { body, schema: PlaygroundSession });

/** PATCH …/playground/sessions/:id */
export const updateSession = (orgId: string, projectId: string, id: string, body: UpdatePlaygroundSessionRequest) =>
  api(`${playgroundApi(orgId, projectId)}/sessions/${encodeURIComponent(id)}`, {
    method: "PATCH",
    body,
    schema: PlaygroundSession,
  });

/** Rename from the history panel. */
export const useRenameSession = (orgId: string, projectId: string) =>
  useInvalidatingMutation(playgroundKeys.sessions(orgId, projectId), (v: { id: string; title: string }) =>
    updateSession(orgId, projectId, v.id, { title: v.title }),
  );

/** DELETE …/playground/sessions/:id */
export const useDeleteSession = (orgId: string, projectId: string) =>
  useInvalidatingMutation(playgroundKeys.sessions(orgId, projectId), (id: string) =>
    api(`${playgroundApi(orgId, projectId)}/sessions/${encodeURIComponent(id)}`, {
      method: "DELETE",
      schema: OkResponse,
    }),
  );
