import {
  AddProjectMemberRequest,
  ArchiveProjectRequest,
  CreateProjectRequest,
  ListProjectsQuery,
  OkResponse,
  OrgIdParams,
  PageQuery,
  ProjectBilling,
  ProjectBillingQuery,
  ProjectDetail,
  ProjectMemberCandidates,
  ProjectMemberPage,
  ProjectMemberParams,
  ProjectOverview,
  ProjectPage,
  ProjectParams,
  ProjectRow,
  UpdateProjectMemberRequest,
  UpdateProjectRequest,
} from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import type { App } from "../../http/route.ts";
import { requireUser } from "../../http/session.ts";
import { archiveProject } from "./archive-project.ts";
import { changeProjectMember } from "./change-project-member.ts";
import { createProject } from "./create-project.ts";
import { getProjectBilling } from "./get-project-billing.ts";
import { getProjectOverview } from "./get-project-overview.ts";
import { listProjectMemberCandidates } from "./list-project-member-candidates.ts";
import { listProjectMembers } from "./list-project-members.ts";
import { listProjects } from "./list-projects.ts";
import { updateProject } from "./update-project.ts";

export default async function projectRoutes(app: App, ctx: AppContext) {
  const base = "/orgs/:orgId/projects";
  app.get(
    base,
    { schema: { params: OrgIdParams, querystring: ListProjectsQuery, response: { 200: ProjectPage } } },
    async (req) => listProjects({ ctx, userId: requireUser(req).userId, orgId: req.params.orgId, ...req.query }),
  );

  app.post(
    base,
    { schema: { params: OrgIdParams, body: CreateProjectRequest, response: { 201: ProjectRow } } },
    async (req, reply) => {
      const { userId } = requireUser(req);
      reply.status(201);
      return createProject({ ctx, userId, orgId: req.params.orgId, ...req.body });
    },
  );

  app.get(
    `${base}/:projectId`,
    { schema: { params: ProjectParams, response: { 200: ProjectOverview } } },
    async (req) => getProjectOverview({ ctx, userId: requireUser(req).userId, ...req.params }),
  );

  app.patch(
    `${base}/:projectId`,
    { schema: { params: ProjectParams, body: UpdateProjectRequest, response: { 200: ProjectDetail } } },
    async (req) => updateProject({ ctx, userId: requireUser(req).userId, ...req.params, changes: req.body }),
  );

  app.post(
    `${base}/:projectId/archive`,
    { schema: { params: ProjectParams, body: ArchiveProjectRequest, response: { 200: ProjectDetail } } },
    async (req) =>
      archiveProject({ ctx, userId: requireUser(req).userId, ...req.params, confirmName: req.body.confirmName }),
  );

  app.get(
    `${base}/:projectId/members`,
    { schema: { params: ProjectParams, querystring: PageQuery, response: { 200: ProjectMemberPage } } },
    async (req) => listProjectMembers({ ctx, userId: requireUser(req).userId, ...req.params, ...req.query }),
  );

  app.get(
    `${base}/:projectId/member-candidates`,
    { schema: { params: ProjectParams, response: { 200: ProjectMemberCandidates } } },
    async (req) => listProjectMemberCandidates({ ctx, userId: requireUser(req).userId, ...req.params }),
  );

  app.post(
    `${base}/:projectId/members`,
    { schema: { params: ProjectParams, body: AddProjectMemberRequest, response: { 201: OkResponse } } },
    async (req, reply) => {
      const { userId } = requireUser(req);
      await changeProjectMember({
        ctx,
        userId,
        ...req.params,
        memberUserId: req.body.userId,
        action: { kind: "add", role: req.body.role },
      });
      reply.status(201);
      return { ok: true as const };
    },
  );

  app.patch(
    `${base}/:projectId/members/:userId`,
    { schema: { params: ProjectMemberParams, body: UpdateProjectMemberRequest, response: { 200: OkResponse } } },
    async (req) => {
      const { orgId, projectId, userId: memberUserId } = req.params;
      await changeProjectMember({
        ctx,
        userId: requireUser(req).userId,
        orgId,
        projectId,
        memberUserId,
        action: { kind: "update", role: req.body.role },
      });
      return { ok: true as const };
    },
  );

  app.delete(
    `${base}/:projectId/members/:userId`,
    { schema: { params: ProjectMemberParams, response: { 200: OkResponse } } },
    async (req) => {
      const { orgId, projectId, userId: memberUserId } = req.params;
      await changeProjectMember({
        ctx,
        userId: requireUser(req).userId,
        orgId,
        projectId,
        memberUserId,
        action: { kind: "remove" },
      });
      return { ok: true as const };
    },
  );

  app.get(
    `${base}/:projectId/billing`,
    { schema: { params: ProjectParams, querystring: ProjectBillingQuery, response: { 200: ProjectBilling } } },
    async (req) => getProjectBilling({ ctx, userId: requireUser(req).userId, ...req.params, month: req.query.month }),
  );
}
