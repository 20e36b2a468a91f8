import { Alert, Anchor, Badge, Group, Stack, Tabs, Text, Title } from "@mantine/core";
import type { Currency, OrgRole, ProjectDetail } from "@moonport/contracts";
import { IconArchive, IconChevronLeft } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { PROJECT_TABS, type ProjectTab, paths } from "../../../lib/paths.ts";
import { projectQuery } from "../api/get-project.ts";
import { BillingTab } from "./tabs/billing-tab.tsx";
import { MembersTab } from "./tabs/members-tab.tsx";
import { OverviewTab } from "./tabs/overview-tab.tsx";
import { SettingsTab } from "./tabs/settings-tab.tsx";

/**
 * One project: overview, settings (with archive), members, API keys, billing. The API keys tab belongs to the
 * keys feature; the route passes it in (`apiKeysTab`), since features do not import each other.
 */
export function ProjectScreen({
  orgId,
  orgRole,
  currency,
  projectId,
  tab,
  onTab,
  apiKeysTab,
}: {
  orgId: string;
  orgRole: OrgRole;
  currency: Currency;
  projectId: string;
  tab: ProjectTab;
  onTab: (tab: ProjectTab) => void;
  apiKeysTab: (project: ProjectDetail) => ReactNode;
}) {
  const { t } = useTranslation("org");
  const project = useQuery(projectQuery(orgId, projectId));
  if (project.isPending) return <LoadingBlock rows={6} />;
  if (project.isError) return <LoadError error={project.error} onRetry={() => project.refetch()} />;
  const p = project.data.project;
  const archived = p.status === "archived";
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Anchor component={Link} to={paths.projects} size="sm">
          <Group gap={4}>
            <IconChevronLeft size={14} />
            {t("projects.back")}
          </Group>
        </Anchor>
        <Group gap="sm">
          <Title order={2}>{p.name}</Title>
          <Badge variant="light" color={archived ? "gray" : "teal"}>
            {t(`projects.status.${p.status}`)}
          </Badge>
          <Badge variant="outline" color="gray">
            {t("projects.yourRole", { role: t(`roles.${p.role}`) })}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {p.description || t("projects.noDescription")}
        </Text>
      </Stack>
      {archived ? (
        <Alert color="gray" variant="light" icon={<IconArchive size={16} />} data-testid="archived-banner">
          {t("projects.archivedBanner", { date: p.archivedAt ? p.archivedAt.slice(0, 10) : "" })}
        </Alert>
      ) : null}
      <Tabs value={tab} onChange={(v) => v && onTab(v as ProjectTab)} keepMounted={false}>
        <Tabs.List>
          {PROJECT_TABS.map((x) => (
            <Tabs.Tab key={x} value={x}>
              {t(`projects.tab.${x}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="overview" pt="lg">
          <OverviewTab data={project.data} currency={currency} />
        </Tabs.Panel>
        <Tabs.Panel value="settings" pt="lg">
          <SettingsTab orgId={orgId} orgRole={orgRole} project={p} currency={currency} />
        </Tabs.Panel>
        <Tabs.Panel value="members" pt="lg">
          <MembersTab orgId={orgId} project={p} />
        </Tabs.Panel>
        <Tabs.Panel value="api-keys" pt="lg">
          {apiKeysTab(p)}
        </Tabs.Panel>
        <Tabs.Panel value="billing" pt="lg">
          <BillingTab orgId={orgId} projectId={p.id} currency={currency} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
