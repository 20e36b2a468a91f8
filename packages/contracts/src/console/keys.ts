import { z } from "zod";
import { vmsg } from "../validation.ts";
import { PageQuery, paged } from "./common.ts";

/** §5: at most 32 characters. */
export const ApiKeyName = z
  .string({ error: vmsg("required") })
  .trim()
  .min(1, vmsg("required"))
  .max(32, vmsg("too_long", { max: 32 }));

export const ApiKeyStatus = z.enum(["enabled", "disabled"]);

export const ApiKeyRow = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  creator: z.object({ userId: z.string(), nickname: z.string().nullable() }),
  /** e.g. "sk-Ab12…x9Yz"; the full key is never returned after creation. */
  mask: z.string(),
  project: z.object({ id: z.string(), name: z.string(), status: z.enum(["active", "archived"]) }),
  lastUsedAt: z.string().nullable(),
  status: ApiKeyStatus,
  /** Whether the caller may rename, enable/disable or delete it. */
  canManage: z.boolean(),
});
export type ApiKeyRow = z.infer<typeof ApiKeyRow>;
export const ApiKeyPage = paged(ApiKeyRow);

export const ListApiKeysQuery = PageQuery.extend({ projectId: z.string().min(1).max(64).optional() });

export const CreateApiKeyRequest = z.object({
  name: ApiKeyName,
  projectId: z.string({ error: vmsg("required") }).min(1, vmsg("required")),
});
export type CreateApiKeyRequest = z.input<typeof CreateApiKeyRequest>;
/** The only response that ever contains the secret. */
export const CreateApiKeyResponse = z.object({ key: ApiKeyRow, secret: z.string() });

export const UpdateApiKeyRequest = z
  .object({ name: ApiKeyName.optional(), status: ApiKeyStatus.optional() })
  .refine((v) => v.name !== undefined || v.status !== undefined, vmsg("required"));
export type UpdateApiKeyRequest = z.input<typeof UpdateApiKeyRequest>;

export const ApiKeyParams = z.object({ orgId: z.string().min(1).max(64), keyId: z.string().min(1).max(64) });
