import { EDITION_CURRENCY, type Edition } from "@moonport/contracts";
import { type Db, newId, schema, type Tx } from "@moonport/db";
import { openOrganizationBalance } from "../billing/index.ts";

/**
 * Creates an organization with its creator as admin and a default project the creator administers. The
 * organization keeps the currency of the edition it was made in.
 */
export async function createOrganization(opts: {
  db: Db | Tx;
  name: string;
  edition: Edition;
  creatorUserId: string;
  creatorNickname: string;
  personal?: boolean;
  defaultProjectName?: string;
}): Promise<{ orgId: string; projectId: string }> {
  const { db, edition, creatorUserId } = opts;
  const orgId = newId("org");
  const projectId = newId("proj");
  await db.insert(schema.organizations).values({
    id: orgId,
    name: opts.name,
    edition,
    currency: EDITION_CURRENCY[edition],
    personal: opts.personal ?? false,
    createdBy: creatorUserId,
  });
  await openOrganizationBalance({ db, orgId });
  await db.insert(schema.orgMembers).values({
    orgId,
    userId: creatorUserId,
    role: "admin",
    nickname: opts.creatorNickname,
  });
  await db.insert(schema.projects).values({
    id: projectId,
    orgId,
    name: opts.defaultProjectName ?? "default",
    isDefault: true,
  });
  await db.insert(schema.projectMembers).values({ projectId, userId: creatorUserId, role: "admin" });
  return { orgId, projectId };
}
