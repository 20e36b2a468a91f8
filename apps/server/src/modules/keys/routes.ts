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
import type { App } from "../../http/route.ts";
import { requireUser } from "../../http/session.ts";
import { AppError } from "../../lib/app-error.ts";
import { issueApiKey } from "./issue-api-key.ts";
import { listApiKeys } from "./list-api-keys.ts";
import { updateApiKey } from "./update-api-key.ts";

export default async function keyRoutes(app: App, ctx: AppContext) {
  app.get(
    "/orgs/:orgId/api-keys",
    { schema: { params: OrgIdParams, querystring: ListApiKeysQuery, response: { 200: ApiKeyPage } } },
    async (req) => listApiKeys({ ctx, userId: requireUser(req).userId, orgId: req.params.orgId, ...req.query }),
  );

  app.post(
    "/orgs/:orgId/api-keys",
    { schema: { params: OrgIdParams, body: CreateApiKeyRequest, response: { 201: CreateApiKeyResponse } } },
    async (req, reply) => {
      const { userId } = requireUser(req);
      reply.status(201);
      return issueApiKey({ ctx, userId, orgId: req.params.orgId, ...req.body });
    },
  );

  app.patch(
    "/orgs/:orgId/api-keys/:keyId",
    { schema: { params: ApiKeyParams, body: UpdateApiKeyRequest, response: { 200: ApiKeyRow } } },
    async (req) => {
      const row = await updateApiKey({ ctx, userId: requireUser(req).userId, ...req.params, change: req.body });
      if (!row) throw new AppError("not_found");
      return row;
    },
  );

  app.delete(
    "/orgs/:orgId/api-keys/:keyId",
    { schema: { params: ApiKeyParams, response: { 200: OkResponse } } },
    async (req) => {
      await updateApiKey({ ctx, userId: requireUser(req).userId, ...req.params, change: "delete" });
      return { ok: true as const };
    },
  );
}
