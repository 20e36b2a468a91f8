import type { ApiKeyRow } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, count, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { assertProjectActive, type OrgAccess, type ProjectAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { createApiKey } from "./create-api-key.ts";
import { getVisibleKey } from "./key-access.ts";

/**
 * Creates a key in a project the caller belongs to (access: project members, any role), within the organization's key quota,
 * which all its projects share. Returns the secret once.
 */
export async function issueApiKey(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  name: string;
}): Promise<{ key: ApiKeyRow; secret: string }> {
  const max = opts.ctx.config.limits.maxApiKeys;
  const { access } = opts;
  const { id: projectId, orgId } = opts.project.project;
  return opts.ctx.db.transaction(async (tx) => {
    assertProjectActive(opts.project.project);
    await tx
      .select({ id: schema.organizations.id })
      .from(schema.organizations)
      .where(eq(schema.organizations.id, orgId))
      .for("update");
    const [existing] = await tx
      .select({ n: count() })
      .from(schema.apiKeys)
      .where(and(eq(schema.apiKeys.orgId, orgId), isNull(schema.apiKeys.deletedAt)));
    if ((existing?.n ?? 0) >= max) throw new AppError("limit_reached", { params: { reason: `${max} API keys` } });
    const created = await createApiKey({
      db: tx,
      orgId,
      projectId,
      name: opts.name,
      createdBy: access.userId,
    });
    return { key: await getVisibleKey(tx, access, created.id), secret: created.key };
  });
}
