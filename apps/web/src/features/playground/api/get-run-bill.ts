import { PlaygroundRunBill } from "@moonport/contracts";
import { api } from "../../../lib/api.ts";
import { playgroundApi } from "./query-keys.ts";

/** GET …/playground/bills/:requestId: what a run was billed (the footer's cost). */
export const fetchRunBill = (orgId: string, projectId: string, requestId: string) =>
  api(`${playgroundApi(orgId, projectId)}/bills/${encodeURIComponent(requestId)}`, { schema: PlaygroundRunBill });
