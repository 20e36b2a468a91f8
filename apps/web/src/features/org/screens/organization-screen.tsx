import { Tabs } from "@mantine/core";
import type { OrgRole } from "@moonport/contracts";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { orgQuery } from "../api/queries.ts";
import { LoadError, LoadingBlock } from "../components/states.tsx";
import { ApiKeysPanel } from "./api-keys-panel.tsx";
import { AuthenticationPanel } from "./authentication-panel.tsx";
import { GeneralPanel } from "./general-panel.tsx";
import { LimitsPanel } from "./limits-panel.tsx";
import { MembersPanel } from "./members-panel.tsx";
import { ProjectsPanel } from "./projects-panel.tsx";

export const ORG_TABS = ["general", "members", "projects", "api-keys", "limits", "authentication"] as const;
export type OrgTab = (typeof ORG_TABS)[number];

/** Organization management: one tab per area; members only for organization admins. */
export function OrganizationScreen({
  orgId,
  tab,
  onTab,
  onOrgCreated,
}: {
  orgId: string;
  tab: OrgTab;
  onTab: (tab: OrgTab) => void;
  onOrgCreated?: (orgId: string) => void;
}) {
  const { t } = useTranslation("org");
  const org = useQuery(orgQuery(orgId));
  if (org.isPending) return <LoadingBlock rows={5} />;
  if (org.isError) return <LoadError error={org.error} onRetry={() => org.refetch()} />;
  const role: OrgRole = org.data.role;
  const tabs = ORG_TABS.filter((x) => x !== "members" || role === "admin");
  const current = tabs.includes(tab) ? tab : "general";
  return (
    <Tabs value={current} onChange={(v) => v && onTab(v as OrgTab)} keepMounted={false}>
      <Tabs.List mb="lg">
        {tabs.map((x) => (
          <Tabs.Tab key={x} value={x}>
            {t(`organization.tab.${x}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      <Tabs.Panel value="general">
        <GeneralPanel org={org.data} onCreated={onOrgCreated} />
      </Tabs.Panel>
      {role === "admin" ? (
        <Tabs.Panel value="members">
          <MembersPanel orgId={orgId} />
        </Tabs.Panel>
      ) : null}
      <Tabs.Panel value="projects">
        <ProjectsPanel orgId={orgId} role={role} />
      </Tabs.Panel>
      <Tabs.Panel value="api-keys">
        <ApiKeysPanel orgId={orgId} role={role} />
      </Tabs.Panel>
      <Tabs.Panel value="limits">
        <LimitsPanel orgId={orgId} />
      </Tabs.Panel>
      <Tabs.Panel value="authentication">
        <AuthenticationPanel org={org.data} />
      </Tabs.Panel>
    </Tabs>
  );
}
