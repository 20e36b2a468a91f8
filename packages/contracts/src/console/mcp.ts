import { z } from "zod";
import { vmsg } from "../validation.ts";

/**
 * MCP servers of the playground (docs/product-spec.md §3–§5). Private to their author in a project, like
 * function tools. Secrets (token, password) go in only: responses say whether one is set, never what it is. On an
 * edit an absent secret keeps the stored one.
 */
export const MCP_TRANSPORTS = ["streamable_http", "sse"] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];
export const MCP_AUTH_TYPES = ["none", "bearer", "basic", "api_key"] as const;
export type McpAuthType = (typeof MCP_AUTH_TYPES)[number];
export const MCP_STATUSES = ["connecting", "connected", "error", "disconnected"] as const;
export type McpStatus = (typeof MCP_STATUSES)[number];

export const MCP_LIMITS = { name: 64, description: 500, url: 2048, secret: 4096, perProject: 20 } as const;
export const MCP_TIMEOUT_MS = { min: 1000, max: 120_000, default: 30_000 } as const;

const secret = z.string().max(MCP_LIMITS.secret, vmsg("too_long", { max: MCP_LIMITS.secret }));

const McpServerFields = z.object({
  name: z
    .string({ error: vmsg("required") })
    .trim()
    .min(1, vmsg("required"))
    .max(MCP_LIMITS.name, vmsg("too_long", { max: MCP_LIMITS.name })),
  description: z
    .string()
    .max(MCP_LIMITS.description, vmsg("too_long", { max: MCP_LIMITS.description }))
    .default(""),
  url: z
    .string({ error: vmsg("required") })
    .trim()
    .min(1, vmsg("required"))
    .max(MCP_LIMITS.url, vmsg("too_long", { max: MCP_LIMITS.url }))
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === "http:" || u.protocol === "https:") && !u.username && !u.password;
      } catch {
        return false;
      }
    }, vmsg("url")),
  transport: z.enum(MCP_TRANSPORTS, { error: vmsg("invalid_type") }).default("streamable_http"),
  authType: z.enum(MCP_AUTH_TYPES, { error: vmsg("invalid_type") }).default("none"),
  token: secret.optional(),
  username: z
    .string()
    .max(256, vmsg("too_long", { max: 256 }))
    .optional(),
  password: secret.optional(),
  headerName: z
    .string()
    .max(128, vmsg("too_long", { max: 128 }))
    .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]*$/, vmsg("header_name"))
    .optional(),
  timeoutMs: z
    .number({ error: vmsg("integer") })
    .int(vmsg("integer"))
    .min(MCP_TIMEOUT_MS.min, vmsg("range", { min: MCP_TIMEOUT_MS.min, max: MCP_TIMEOUT_MS.max }))
    .max(MCP_TIMEOUT_MS.max, vmsg("range", { min: MCP_TIMEOUT_MS.min, max: MCP_TIMEOUT_MS.max }))
    .default(MCP_TIMEOUT_MS.default),
  enabled: z.boolean().default(true),
});

/**
 * §5: bearer needs a token; basic a username and a password; API key a token and a header name. `stored` says
 * which secrets the server already keeps (an edit may leave them out).
 */
export function mcpAuthIssues(
  v: { authType?: McpAuthType; token?: string; username?: string; password?: string; headerName?: string },
  stored: { tokenSet: boolean; passwordSet: boolean } = { tokenSet: false, passwordSet: false },
): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  const has = (s: string | undefined) => s !== undefined && s.trim() !== "";
  const token = has(v.token) || (v.token === undefined && stored.tokenSet);
  const password = has(v.password) || (v.password === undefined && stored.passwordSet);
  if ((v.authType === "bearer" || v.authType === "api_key") && !token)
    issues.push({ path: "token", message: vmsg("required") });
  if (v.authType === "basic") {
    if (!has(v.username)) issues.push({ path: "username", message: vmsg("required") });
    if (!password) issues.push({ path: "password", message: vmsg("required") });
  }
  if (v.authType === "api_key" && !has(v.headerName)) issues.push({ path: "headerName", message: vmsg("required") });
  return issues;
}

export const CreateMcpServerRequest = McpServerFields.superRefine((v, ctx) => {
  for (const i of mcpAuthIssues(v)) ctx.addIssue({ code: "custom", path: [i.path], message: i.message });
});
export type CreateMcpServerRequest = z.input<typeof CreateMcpServerRequest>;

/** An edit: any field; the auth rule is checked on the result, with the stored secrets, by the server. */
export const UpdateMcpServerRequest = McpServerFields.partial().extend({
  // Without their defaults: a field left out of an edit stays as it is.
  description: McpServerFields.shape.description.removeDefault().optional(),
  transport: McpServerFields.shape.transport.removeDefault().optional(),
  authType: McpServerFields.shape.authType.removeDefault().optional(),
  timeoutMs: McpServerFields.shape.timeoutMs.removeDefault().optional(),
  enabled: McpServerFields.shape.enabled.removeDefault().optional(),
});
export type UpdateMcpServerRequest = z.input<typeof UpdateMcpServerRequest>;

export const McpToolInfo = z.object({
  name: z.string(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
});
export type McpToolInfo = z.infer<typeof McpToolInfo>;

export const McpServer = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  url: z.string(),
  transport: z.enum(MCP_TRANSPORTS),
  authType: z.enum(MCP_AUTH_TYPES),
  username: z.string().nullable(),
  headerName: z.string().nullable(),
  /** Whether a token / password is stored; the values never leave the server. */
  tokenSet: z.boolean(),
  passwordSet: z.boolean(),
  timeoutMs: z.number().int(),
  enabled: z.boolean(),
  status: z.enum(MCP_STATUSES),
  /** The reason of the last failed connection, as a message code (see MCP_SYNC_ERRORS) and detail. */
  lastError: z.string().nullable(),
  lastConnectedAt: z.string().nullable(),
  tools: z.array(McpToolInfo),
  toolsSyncedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type McpServer = z.infer<typeof McpServer>;

export const McpServerList = z.object({ items: z.array(McpServer) });
export type McpServerList = z.infer<typeof McpServerList>;

export const McpServerParams = z.object({
  orgId: z.string().min(1).max(64),
  projectId: z.string().min(1).max(64),
  serverId: z.string().min(1).max(64),
});
