import {
  ApiKeyPage,
  ApiKeyParams,
  ApiKeyRow,
  CreateApiKeyRequest,
  CreateApiKeyResponse,
  ListApiKeysQuery,
  OkResponse,
  OrgIdParams,
  UpdateApiKeyRequest,
} from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import { type App, orgAccess, projectAccess } from "../../http/route.ts";
import { AppError } from "../../lib/app-error.ts";
import { issueApiKey } from "./issue-api-key.ts";
import { KEY_VISIBILITY } from "./key-access.ts";
import { listApiKeys } from "./list-api-keys.ts";
import { updateApiKey } from "./update-api-key.ts";

export default async function keyRoutes(app: App, ctx: AppContext) {
  app.get(
    "/orgs/:orgId/api-keys",
    {
      config: { access: "orgMember", objectRule: KEY_VISIBILITY },
      schema: { params: OrgIdParams, querystring: ListApiKeysQuery, response: { 200: ApiKeyPage } },
    },
    async (req) => listApiKeys({ ctx, access: orgAccess(req), ...req.query }),
  );

  // Any member of the project named in the body may create a key in it.
  app.post(
    "/orgs/:orgId/api-keys",
    {
      config: { access: "projectMember", project: "body" },
      schema: { params: OrgIdParams, body: CreateApiKeyRequest, response: { 201: CreateApiKeyResponse } },
    },
    async (req, reply) => {
      const key = await issueApiKey({ ctx, access: orgAccess(req), project: projectAccess(req), name: req.body.name });
      reply.status(201);
      return key;
    },
  );

  app.patch(
    "/orgs/:orgId/api-keys/:keyId",
    {
      config: { access: "orgMember", objectRule: KEY_VISIBILITY },
      schema: { params: ApiKeyParams, body: UpdateApiKeyRequest, response: { 200: ApiKeyRow } },
    },
    async (req) => {
      const row = await updateApiKey({ ctx, access: orgAccess(req), keyId: req.params.keyId, change: req.body });
      if (!row) throw new AppError("not_found");
      return row;
    },
  );

  app.delete(
    "/orgs/:orgId/api-keys/:keyId",
    {
      config: { access: "orgMember", objectRule: KEY_VISIBILITY },
      schema: { params: ApiKeyParams, response: { 200: OkResponse } },
    },
    async (req) => {
      await updateApiKey({ ctx, access: orgAccess(req), keyId: req.params.keyId, change: "delete" });
      return { ok: true as const };
    },
  );
}
