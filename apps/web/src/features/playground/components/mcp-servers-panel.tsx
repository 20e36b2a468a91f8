import {
  Alert,
  Badge,
  Button,
  Group,
  NumberInput,
  Paper,
  PasswordInput,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from "@mantine/core";
import {
  CreateMcpServerRequest,
  ERROR_CODES,
  type ErrorCode,
  errorMessage,
  MCP_AUTH_TYPES,
  MCP_TIMEOUT_MS,
  MCP_TRANSPORTS,
  type McpServer,
  type McpStatus,
  mcpAuthIssues,
  UpdateMcpServerRequest,
} from "@moonport/contracts";
import { IconPlus, IconRefresh } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { ConfirmDialog, FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { FormSelect } from "../../../components/console-kit/form-select.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { useLocale } from "../../../i18n/index.ts";
import { ApiError } from "../../../lib/api.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { playgroundKeys } from "../api/query-keys.ts";
import { useDeleteMcpServer, useSaveMcpServer, useSyncMcpServer } from "../api/tools.ts";
import classes from "./playground.module.css";
import { RowIconActions } from "./row-icon-actions.tsx";

const STATUS_COLOR: Record<McpStatus, string> = {
  connecting: "blue",
  connected: "teal",
  error: "red",
  disconnected: "gray",
};

/** "mcp_sync_unauthorized: HTTP 401" (the row's last error) → the §8 message in the reader's language. */
function lastErrorMessage(lastError: string, locale: "en-US" | "zh-CN"): string {
  const cut = lastError.indexOf(":");
  const code = (cut === -1 ? lastError : lastError.slice(0, cut)) as ErrorCode;
  const reason = cut === -1 ? "" : lastError.slice(cut + 1).trim();
  return ERROR_CODES.includes(code) ? errorMessage(code, locale, { reason }) : lastError;
}

/**
 * The caller's MCP servers in this project (docs/product-spec.md §2): status, last connected, sync, enable, edit,
 * delete.
 */
export function McpServersPanel({
  orgId,
  projectId,
  servers,
}: {
  orgId: string;
  projectId: string;
  servers: McpServer[];
}) {
  const { t } = useTranslation("playground");
  const locale = useLocale();
  const qc = useQueryClient();
  const [editing, setEditing] = useState<McpServer | "new" | null>(null);
  const [deleting, setDeleting] = useState<McpServer | null>(null);
  const [syncing, setSyncing] = useState<string | null>(null);
  const save = useSaveMcpServer(orgId, projectId);
  const sync = useSyncMcpServer(orgId, projectId);
  const del = useDeleteMcpServer(orgId, projectId);
  const reason = (e: unknown) => (e instanceof ApiError && e.code !== "network" ? e.message : t("errors.network"));

  const runSync = (id: string) => {
    setSyncing(id);
    // A failed sync also changed the row (status error, its reason): read it again either way.
    sync.mutate(id, {
      onSettled: () => {
        setSyncing(null);
        void qc.invalidateQueries({ queryKey: playgroundKeys.mcpServers(orgId, projectId) });
      },
    });
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" c="dimmed" style={{ flex: 1, minWidth: 200 }}>
          {t("mcp.intro")}
        </Text>
        <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setEditing("new")} data-testid="mcp-add">
          {t("mcp.add")}
        </Button>
      </Group>
      {servers.length === 0 ? (
        <Text size="sm" c="dimmed" py="md" ta="center">
          {t("mcp.empty")}
        </Text>
      ) : (
        servers.map((s) => {
          const status: McpStatus = syncing === s.id ? "connecting" : s.status;
          return (
            <Paper key={s.id} withBorder radius="md" p="sm" data-testid="mcp-row" data-name={s.name}>
              <Stack gap={6}>
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Group gap={6} wrap="wrap">
                      <Text size="sm" fw={600}>
                        {s.name}
                      </Text>
                      <Badge size="sm" variant="light" color={STATUS_COLOR[status]} data-testid="mcp-status">
                        {t(`mcp.status.${status}`)}
                      </Badge>
                    </Group>
                    <Text size="xs" c="dimmed" ff="monospace" className={classes.pre}>
                      {s.url}
                    </Text>
                  </Stack>
                  <RowIconActions
                    editLabel={t("mcp.edit")}
                    deleteLabel={t("mcp.delete")}
                    onEdit={() => setEditing(s)}
                    onDelete={() => setDeleting(s)}
                  />
                </Group>
                {s.description ? (
                  <Text size="xs" c="dimmed">
                    {s.description}
                  </Text>
                ) : null}
                <Text size="xs" c="dimmed">
                  {t(`mcp.transports.${s.transport}`)} · {t(`mcp.auth.${s.authType}`)} ·{" "}
                  {t("mcp.lastConnected", {
                    when: s.lastConnectedAt ? formatDateTime(s.lastConnectedAt, locale) : t("mcp.never"),
                  })}{" "}
                  · {t("mcp.toolCount", { count: s.tools.length })}
                </Text>
                {s.status === "error" && s.lastError && syncing !== s.id ? (
                  <Alert color="red" variant="light" p="xs" data-testid="mcp-error">
                    <Text size="xs">{lastErrorMessage(s.lastError, locale)}</Text>
                  </Alert>
                ) : null}
                {s.tools.length ? (
                  <Group gap={4} wrap="wrap">
                    {s.tools.map((tool) => (
                      <Badge key={tool.name} size="xs" variant="outline" color="gray" tt="none">
                        {tool.name}
                      </Badge>
                    ))}
                  </Group>
                ) : null}
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Switch
                    size="sm"
                    label={t("mcp.enabled")}
                    checked={s.enabled}
                    onChange={(e) => save.mutate({ id: s.id, body: { enabled: e.currentTarget.checked } })}
                    data-testid="mcp-enabled"
                  />
                  <Button
                    size="xs"
                    variant="light"
                    leftSection={<IconRefresh size={14} />}
                    loading={syncing === s.id}
                    onClick={() => runSync(s.id)}
                    data-testid="mcp-sync"
                  >
                    {t("mcp.sync")}
                  </Button>
                </Group>
              </Stack>
            </Paper>
          );
        })
      )}
      <McpServerDialog
        orgId={orgId}
        projectId={projectId}
        server={editing}
        onClose={() => setEditing(null)}
        onSaved={(s) => runSync(s.id)}
      />
      <ConfirmDialog
        opened={!!deleting}
        onClose={() => {
          del.reset();
          setDeleting(null);
        }}
        title={t("mcp.deleteTitle")}
        confirmLabel={t("mcp.delete")}
        pending={del.isPending}
        error={del.error ? t("mcp.deleteFailed", { reason: reason(del.error) }) : undefined}
        onConfirm={() => deleting && del.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
      >
        <Text size="sm">{t("mcp.deleteText", { name: deleting?.name ?? "" })}</Text>
      </ConfirmDialog>
    </Stack>
  );
}

const McpForm = z.object({
  name: z.string(),
  description: z.string(),
  url: z.string(),
  transport: z.enum(MCP_TRANSPORTS),
  authType: z.enum(MCP_AUTH_TYPES),
  token: z.string(),
  username: z.string(),
  password: z.string(),
  headerName: z.string(),
  timeoutMs: z.number().or(z.string()),
  enabled: z.boolean(),
});
type McpFormValues = z.input<typeof McpForm>;

/** The request of the form: the auth type's own fields only; an empty secret on an edit keeps the stored one. */
function toBody(v: z.output<typeof McpForm>) {
  const secret = (s: string) => (s.trim() === "" ? undefined : s);
  return {
    name: v.name,
    description: v.description,
    url: v.url,
    transport: v.transport,
    authType: v.authType,
    ...(v.authType === "bearer" || v.authType === "api_key" ? { token: secret(v.token) } : {}),
    ...(v.authType === "basic" ? { username: v.username, password: secret(v.password) } : {}),
    ...(v.authType === "api_key" ? { headerName: v.headerName } : {}),
    timeoutMs: typeof v.timeoutMs === "number" ? v.timeoutMs : Number.NaN,
    enabled: v.enabled,
  };
}

/** The form's rules are the contract's: the create request, or the edit with the secrets the server keeps. */
function schemaFor(server: McpServer | null) {
  const stored = { tokenSet: server?.tokenSet ?? false, passwordSet: server?.passwordSet ?? false };
  const contract = server
    ? UpdateMcpServerRequest.superRefine((v, ctx) => {
        for (const i of mcpAuthIssues(v, stored)) ctx.addIssue({ code: "custom", path: [i.path], message: i.message });
      })
    : CreateMcpServerRequest;
  return McpForm.superRefine((v, ctx) => {
    const checked = contract.safeParse(toBody(v));
    if (checked.success) return;
    for (const i of checked.error.issues) ctx.addIssue({ code: "custom", path: i.path, message: i.message });
  }).transform(toBody);
}

function defaults(s: McpServer | null): McpFormValues {
  return {
    name: s?.name ?? "",
    description: s?.description ?? "",
    url: s?.url ?? "",
    transport: s?.transport ?? "streamable_http",
    authType: s?.authType ?? "none",
    token: "",
    username: s?.username ?? "",
    password: "",
    headerName: s?.headerName ?? "",
    timeoutMs: s?.timeoutMs ?? MCP_TIMEOUT_MS.default,
    enabled: s?.enabled ?? true,
  };
}

/** Add or edit a server (§3 fields). Secrets are never shown: a stored one reads "set", and empty keeps it. */
function McpServerDialog({ server, ...props }: McpFormProps & { server: McpServer | "new" | null }) {
  const existing = server && server !== "new" ? server : null;
  // A fresh form per server: its schema depends on what the server keeps.
  return server ? <McpServerForm key={existing?.id ?? "new"} {...props} server={existing} /> : null;
}

interface McpFormProps {
  orgId: string;
  projectId: string;
  onClose: () => void;
  onSaved: (s: McpServer) => void;
}

function McpServerForm({ orgId, projectId, server, onClose, onSaved }: McpFormProps & { server: McpServer | null }) {
  const { t } = useTranslation("playground");
  const save = useSaveMcpServer(orgId, projectId);
  const { form, field, error, dialog } = useDialogForm(schemaFor(server), {
    opened: true,
    onClose,
    defaultValues: defaults(server),
    submit: async (body) => onSaved(await save.mutateAsync({ id: server?.id, body })),
    failure: (reason) => t("mcp.saveFailed", { reason }),
  });
  const authType = form.watch("authType");
  const keep = t("mcp.secretKept");
  return (
    <FormDialog
      {...dialog}
      title={server ? t("mcp.editTitle") : t("mcp.addTitle")}
      size="lg"
      submitLabel={t("mcp.saveAndSync")}
    >
      <TextInput label={t("mcp.fields.name")} withAsterisk {...field("name")} data-testid="mcp-name" />
      <Textarea label={t("mcp.fields.description")} autosize minRows={1} maxRows={3} {...field("description")} />
      <TextInput
        label={t("mcp.fields.url")}
        placeholder="https://mcp.example.com/mcp"
        withAsterisk
        {...field("url")}
        data-testid="mcp-url"
      />
      <Group grow align="flex-start" wrap="wrap">
        <FormSelect
          control={form.control}
          name="transport"
          label={t("mcp.fields.transport")}
          data={MCP_TRANSPORTS.map((v) => ({ value: v, label: t(`mcp.transports.${v}`) }))}
          allowDeselect={false}
          error={error("transport")}
          style={{ minWidth: 180 }}
        />
        <Controller
          control={form.control}
          name="timeoutMs"
          render={({ field: f }) => (
            <NumberInput
              label={t("mcp.fields.timeoutMs")}
              description={t("mcp.hints.timeoutMs", { min: MCP_TIMEOUT_MS.min, max: MCP_TIMEOUT_MS.max })}
              value={f.value}
              onChange={(v) => f.onChange(v)}
              allowDecimal={false}
              thousandSeparator=","
              error={error("timeoutMs")}
              style={{ minWidth: 180 }}
            />
          )}
        />
      </Group>
      <FormSelect
        control={form.control}
        name="authType"
        label={t("mcp.fields.authType")}
        data={MCP_AUTH_TYPES.map((v) => ({ value: v, label: t(`mcp.auth.${v}`) }))}
        allowDeselect={false}
        error={error("authType")}
        data-testid="mcp-auth"
      />
      {authType === "api_key" ? (
        <TextInput label={t("mcp.fields.headerName")} placeholder="X-API-Key" withAsterisk {...field("headerName")} />
      ) : null}
      {authType === "basic" ? <TextInput label={t("mcp.fields.username")} withAsterisk {...field("username")} /> : null}
      {authType === "bearer" || authType === "api_key" ? (
        <PasswordInput
          label={t("mcp.fields.token")}
          withAsterisk={!server?.tokenSet}
          placeholder={server?.tokenSet ? keep : undefined}
          description={server?.tokenSet ? t("mcp.secretSet") : undefined}
          autoComplete="off"
          {...field("token")}
          data-testid="mcp-token"
        />
      ) : null}
      {authType === "basic" ? (
        <PasswordInput
          label={t("mcp.fields.password")}
          withAsterisk={!server?.passwordSet}
          placeholder={server?.passwordSet ? keep : undefined}
          description={server?.passwordSet ? t("mcp.secretSet") : undefined}
          autoComplete="off"
          {...field("password")}
        />
      ) : null}
      <Controller
        control={form.control}
        name="enabled"
        render={({ field: f }) => (
          <Switch label={t("mcp.enabled")} checked={f.value} onChange={(e) => f.onChange(e.currentTarget.checked)} />
        )}
      />
    </FormDialog>
  );
}
