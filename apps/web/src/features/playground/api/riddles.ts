import { RiddleAttemptList, RiddleBoard, RiddleClaim, type RiddleStreamEvent } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi, orgKey } from "../../../components/console-kit/org-api.ts";
import { ApiError, api, apiStream } from "../../../lib/api.ts";

export const riddleKeys = {
  board: (orgId: string) => [...orgKey(orgId), "riddles"] as const,
  attempts: (orgId: string, riddleId: string) => [...orgKey(orgId), "riddles", riddleId, "attempts"] as const,
};

/** GET /api/orgs/:orgId/riddles: the caller's board (states, progress, streak, free quota). */
export const riddleBoardQuery = (orgId: string) =>
  queryOptions({
    queryKey: riddleKeys.board(orgId),
    queryFn: () => api(`${orgApi(orgId)}/riddles`, { schema: RiddleBoard }),
  });

/** GET …/riddles/:riddleId/attempts: the caller's judged attempts, newest first. */
export const riddleAttemptsQuery = (orgId: string, riddleId: string) =>
  queryOptions({
    queryKey: riddleKeys.attempts(orgId, riddleId),
    queryFn: () =>
      api(`${orgApi(orgId)}/riddles/${encodeURIComponent(riddleId)}/attempts`, { schema: RiddleAttemptList }),
  });

/** POST …/riddles/:riddleId/claim: the reward voucher into this organization. */
export const claimRiddleReward = (orgId: string, riddleId: string) =>
  api(`${orgApi(orgId)}/riddles/${encodeURIComponent(riddleId)}/claim`, { method: "POST", schema: RiddleClaim });

/**
 * POST …/projects/:projectId/riddles/:riddleId/attempts and reads its event stream: `onDelta` gets the answer so
 * far; resolves with the verdict. Refusals before the stream (locked, prompt rules, balance beyond the free quota)
 * throw ApiError with the server's message; an error event after the stream began throws one too.
 */
export async function submitRiddle(
  orgId: string,
  projectId: string,
  riddleId: string,
  prompt: string,
  onDelta: (answer: string) => void,
  signal: AbortSignal,
): Promise<Extract<RiddleStreamEvent, { type: "verdict" }>> {
  const { events } = await apiStream(
    `${orgApi(orgId)}/projects/${encodeURIComponent(projectId)}/riddles/${encodeURIComponent(riddleId)}/attempts`,
    { prompt },
    signal,
  );
  let answer = "";
  for await (const data of events) {
    const ev = JSON.parse(data) as RiddleStreamEvent;
    if (ev.type === "delta") {
      answer += ev.content;
      onDelta(answer);
    } else if (ev.type === "verdict") return ev;
    else throw new ApiError(502, "stream_error", ev.message);
  }
  throw new ApiError(502, "stream_error", "The answer ended before its verdict.");
}
