import { type Db, newId, schema, type Tx } from "@moonport/db";
import { generateApiKey } from "./key-format.ts";

/**
 * Creates a key in a project and returns the secret once; only its hash and mask are stored. Permission and
 * quota checks belong to the caller (console route or CLI).
 */
export async function createApiKey(opts: {
  db: Db | Tx;
  orgId: string;
  projectId: string;
  name: string;
  createdBy: string;
}): Promise<{ id: string; key: string; mask: string }> {
  const { key, hash, mask } = generateApiKey();
  const id = newId("key");
  await opts.db.insert(schema.apiKeys).values({
    id,
    orgId: opts.orgId,
    projectId: opts.projectId,
    name: opts.name,
    keyHash: hash,
    mask,
    createdBy: opts.createdBy,
  });
  return { id, key, mask };
}
