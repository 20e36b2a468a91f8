import type { ApiKeyRow } from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { deleteApiKey } from "./delete-api-key.ts";
import { getVisibleKey } from "./key-access.ts";
import { renameApiKey } from "./rename-api-key.ts";
import { setApiKeyStatus } from "./set-api-key-status.ts";

/**
 * Renames, enables or disables a key the caller can see, or deletes it (soft: the row stays for bills). The
 * route checks organization membership; the key's own rule (`getVisibleKey`: a key the caller cannot see is
 * `not_found`) is here; the writes (and the gateway cache invalidation) are the keys module's functions.
 * Keys of archived projects are read-only.
 */
export async function updateApiKey(opts: {
  ctx: AppContext;
  access: OrgAccess;
  keyId: string;
  change: { name?: string; status?: "enabled" | "disabled" } | "delete";
}): Promise<ApiKeyRow | null> {
  const { ctx, access, keyId } = opts;
  const orgId = access.org.id;
  const key = await getVisibleKey(ctx.db, access, keyId);
  if (key.project.status !== "active") throw new AppError("project_archived");
  const base = { db: ctx.db, keyEvents: ctx.keyEvents, orgId, keyId };
  if (opts.change === "delete") {
    await deleteApiKey(base);
    return null;
  }
  if (opts.change.name !== undefined) await renameApiKey({ ...base, name: opts.change.name });
  if (opts.change.status !== undefined) await setApiKeyStatus({ ...base, status: opts.change.status });
  return getVisibleKey(ctx.db, access, keyId);
}
