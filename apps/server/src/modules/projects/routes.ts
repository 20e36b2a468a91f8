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
import { type App, orgAccess, projectAccess } from "../../http/route.ts";
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
    {
      config: { access: "orgMember", objectRule: "members see the projects they belong to" },
      schema: { params: OrgIdParams, querystring: ListProjectsQuery, response: { 200: ProjectPage } },
    },
    async (req) => listProjects({ ctx, access: orgAccess(req), ...req.query }),
  );

  app.post(
    base,
    {
      config: { access: "orgAdmin" },
      schema: { params: OrgIdParams, body: CreateProjectRequest, response: { 201: ProjectRow } },
    },
    async (req, reply) => {
      const access = orgAccess(req);
      reply.status(201);
      return createProject({ ctx, access, ...req.body });
    },
  );

  app.get(
    `${base}/:projectId`,
    {
      config: { access: "projectMember", readsBills: true },
      schema: { params: ProjectParams, response: { 200: ProjectOverview } },
    },
    async (req) => getProjectOverview({ ctx, access: orgAccess(req), project: projectAccess(req) }),
  );

  app.patch(
    `${base}/:projectId`,
    {
      config: { access: "projectAdmin" },
      schema: { params: ProjectParams, body: UpdateProjectRequest, response: { 200: ProjectDetail } },
    },
    async (req) => updateProject({ ctx, access: orgAccess(req), project: projectAccess(req), changes: req.body }),
  );

  // An organization admin's action, on a project they must be able to see like any other.
  app.post(
    `${base}/:projectId/archive`,
    {
      config: { access: "orgAdmin" },
      schema: { params: ProjectParams, body: ArchiveProjectRequest, response: { 200: ProjectDetail } },
    },
    async (req) =>
      archiveProject({ ctx, access: orgAccess(req), project: projectAccess(req), confirmName: req.body.confirmName }),
  );

  app.get(
    `${base}/:projectId/members`,
    {
      config: { access: "projectMember" },
      schema: { params: ProjectParams, querystring: PageQuery, response: { 200: ProjectMemberPage } },
    },
    async (req) => listProjectMembers({ ctx, project: projectAccess(req), ...req.query }),
  );

  app.get(
    `${base}/:projectId/member-candidates`,
    {
      config: { access: "projectAdmin" },
      schema: { params: ProjectParams, response: { 200: ProjectMemberCandidates } },
    },
    async (req) => listProjectMemberCandidates({ ctx, project: projectAccess(req) }),
  );

  app.post(
    `${base}/:projectId/members`,
    {
      config: { access: "projectAdmin" },
      schema: { params: ProjectParams, body: AddProjectMemberRequest, response: { 201: OkResponse } },
    },
    async (req, reply) => {
      await changeProjectMember({
        ctx,
        project: projectAccess(req),
        memberUserId: req.body.userId,
        action: { kind: "add", role: req.body.role },
      });
      reply.status(201);
      return { ok: true as const };
    },
  );

  app.patch(
    `${base}/:projectId/members/:userId`,
    {
      config: { access: "projectAdmin" },
      schema: { params: ProjectMemberParams, body: UpdateProjectMemberRequest, response: { 200: OkResponse } },
    },
    async (req) => {
      await changeProjectMember({
        ctx,
        project: projectAccess(req),
        memberUserId: req.params.userId,
        action: { kind: "update", role: req.body.role },
      });
      return { ok: true as const };
    },
  );

  app.delete(
    `${base}/:projectId/members/:userId`,
    {
      config: { access: "projectAdmin" },
      schema: { params: ProjectMemberParams, response: { 200: OkResponse } },
    },
    async (req) => {
      await changeProjectMember({
        ctx,
        project: projectAccess(req),
        memberUserId: req.params.userId,
        action: { kind: "remove" },
      });
      return { ok: true as const };
    },
  );

  app.get(
    `${base}/:projectId/billing`,
    {
      config: { access: "projectMember", readsBills: true },
      schema: { params: ProjectParams, querystring: ProjectBillingQuery, response: { 200: ProjectBilling } },
    },
    async (req) =>
      getProjectBilling({ ctx, access: orgAccess(req), project: projectAccess(req), month: req.query.month }),
  );
}
