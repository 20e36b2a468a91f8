import { Badge, Button, Drawer, Group, Stack, Switch, Tabs, Text, Title } from "@mantine/core";
import type { FunctionTool, McpServer, PlaygroundTool } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { isEnabled, sessionOnlyTools, setAllTools, type ToolEntry, toggleTool } from "../model/tool-catalog.ts";
import { FunctionToolsPanel } from "./function-tools-panel.tsx";
import { McpServersPanel } from "./mcp-servers-panel.tsx";
import classes from "./playground.module.css";

export type ToolsTab = "picker" | "functions" | "mcp";

/**
 * The playground's tools: the picker (which tools each run sends), the caller's custom function tools
 * and their MCP servers, in one drawer so the conversation stays in view.
 */
export function ToolsDrawer(props: {
  opened: boolean;
  onClose: () => void;
  tab: ToolsTab;
  onTab: (tab: ToolsTab) => void;
  orgId: string;
  projectId: string;
  entries: ToolEntry[];
  functions: FunctionTool[];
  servers: McpServer[];
  tools: PlaygroundTool[];
  onTools: (tools: PlaygroundTool[]) => void;
  readOnly: boolean;
}) {
  const { t } = useTranslation("playground");
  return (
    <Drawer
      opened={props.opened}
      onClose={props.onClose}
      title={t("tools.title")}
      position="right"
      size="xl"
      className={classes.root}
      closeButtonProps={{ "aria-label": t("tools.close") }}
    >
      <Tabs value={props.tab} onChange={(v) => v && props.onTab(v as ToolsTab)} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="picker" data-testid="tools-tab-picker">
            {t("tools.tabs.picker")}
          </Tabs.Tab>
          <Tabs.Tab value="functions" data-testid="tools-tab-functions">
            {t("tools.tabs.functions")}
          </Tabs.Tab>
          <Tabs.Tab value="mcp" data-testid="tools-tab-mcp">
            {t("tools.tabs.mcp")}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="picker">
          <ToolPicker {...props} />
        </Tabs.Panel>
        <Tabs.Panel value="functions">
          <FunctionToolsPanel orgId={props.orgId} projectId={props.projectId} tools={props.functions} />
        </Tabs.Panel>
        <Tabs.Panel value="mcp">
          <McpServersPanel orgId={props.orgId} projectId={props.projectId} servers={props.servers} />
        </Tabs.Panel>
      </Tabs>
    </Drawer>
  );
}

function ToolPicker({
  entries,
  tools,
  onTools,
  onTab,
  readOnly,
}: {
  entries: ToolEntry[];
  tools: PlaygroundTool[];
  onTools: (tools: PlaygroundTool[]) => void;
  onTab: (tab: ToolsTab) => void;
  readOnly: boolean;
}) {
  const { t } = useTranslation("playground");
  const own = sessionOnlyTools(tools, entries);
  const total = entries.length + own.length;
  const groups: { kind: ToolEntry["kind"]; title: string; items: ToolEntry[] }[] = [
    { kind: "official", title: t("tools.groups.official"), items: entries.filter((e) => e.kind === "official") },
    { kind: "function", title: t("tools.groups.functions"), items: entries.filter((e) => e.kind === "function") },
    { kind: "mcp", title: t("tools.groups.mcp"), items: entries.filter((e) => e.kind === "mcp") },
  ];
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" data-testid="tools-picker-count">
          {t("tools.picker.count", { enabled: tools.length, total })}
        </Text>
        <Group gap={6}>
          <Button
            size="xs"
            variant="default"
            onClick={() => onTools(setAllTools(tools, entries, true))}
            disabled={readOnly}
            data-testid="tools-all"
          >
            {t("tools.picker.all")}
          </Button>
          <Button
            size="xs"
            variant="default"
            onClick={() => onTools(setAllTools(tools, entries, false))}
            disabled={readOnly}
            data-testid="tools-none"
          >
            {t("tools.picker.none")}
          </Button>
        </Group>
      </Group>
      <Text size="xs" c="dimmed">
        {t("tools.picker.hint")}
      </Text>
      {groups.map((g) => (
        <Stack key={g.kind} gap={8}>
          <Title order={3} size="h6">
            {g.title}{" "}
            <Text span size="xs" c="dimmed">
              {t("tools.picker.groupCount", {
                enabled: g.items.filter((e) => isEnabled(e, tools, entries)).length,
                total: g.items.length,
              })}
            </Text>
          </Title>
          {g.items.length === 0 ? (
            <Group gap="xs" wrap="wrap">
              <Text size="sm" c="dimmed">
                {g.kind === "function" ? t("tools.picker.noFunctions") : t("tools.picker.noMcp")}
              </Text>
              <Button
                size="compact-xs"
                variant="light"
                onClick={() => onTab(g.kind === "function" ? "functions" : "mcp")}
              >
                {g.kind === "function" ? t("functions.new") : t("mcp.add")}
              </Button>
            </Group>
          ) : (
            g.items.map((e) => (
              <Switch
                key={e.key}
                checked={isEnabled(e, tools, entries)}
                onChange={(ev) => onTools(toggleTool(tools, e, ev.currentTarget.checked))}
                disabled={readOnly}
                data-testid={`tool-switch-${e.definition.function.name}`}
                label={
                  <Group gap={6} wrap="wrap">
                    <Text size="sm" ff="monospace">
                      {e.definition.function.name}
                    </Text>
                    {e.kind !== "function" ? (
                      <Text size="xs" c="dimmed">
                        {e.group}
                      </Text>
                    ) : null}
                    {e.billed ? (
                      <Badge size="xs" variant="light" color="orange">
                        {t("tools.picker.billed")}
                      </Badge>
                    ) : null}
                  </Group>
                }
                description={e.definition.function.description}
                classNames={{ description: classes.clamp2 }}
              />
            ))
          )}
        </Stack>
      ))}
      {own.length ? (
        <Stack gap={8}>
          <Title order={3} size="h6">
            {t("tools.groups.session")}
          </Title>
          <Text size="xs" c="dimmed">
            {t("tools.picker.sessionHint")}
          </Text>
          {own.map((tool) => (
            <Switch
              key={tool.function.name}
              checked
              onChange={() => onTools(tools.filter((x) => x.function.name !== tool.function.name))}
              disabled={readOnly}
              label={
                <Text size="sm" ff="monospace">
                  {tool.function.name}
                </Text>
              }
              description={tool.function.description}
            />
          ))}
        </Stack>
      ) : null}
    </Stack>
  );
}
