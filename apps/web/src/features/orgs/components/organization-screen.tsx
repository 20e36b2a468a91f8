import { Tabs } from "@mantine/core";
import type { OrgGeneral, OrgRole } from "@moonport/contracts";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { ORG_TABS, type OrgTab } from "../../../lib/paths.ts";
import { orgQuery } from "../api/get-org.ts";
import { AuthenticationPanel } from "./authentication-panel.tsx";
import { GeneralPanel } from "./general-panel.tsx";

/** The tabs other features fill (the route composes them, features do not import each other). */
export type OrgPanels = Record<"members" | "projects" | "api-keys" | "limits", (role: OrgRole) => ReactNode>;

/** Organization management: one tab per area; members only for organization admins. */
export function OrganizationScreen({
  orgId,
  tab,
  onTab,
  onOrgCreated,
  panels,
}: {
  orgId: string;
  tab: OrgTab;
  onTab: (tab: OrgTab) => void;
  onOrgCreated?: (orgId: string) => void;
  panels: OrgPanels;
}) {
  const { t } = useTranslation("org");
  const org = useQuery(orgQuery(orgId));
  if (org.isPending) return <LoadingBlock rows={5} />;
  if (org.isError) return <LoadError error={org.error} onRetry={() => org.refetch()} />;
  const role: OrgRole = org.data.role;
  const tabs = ORG_TABS.filter((x) => x !== "members" || role === "admin");
  const current = tabs.includes(tab) ? tab : "general";
  const panel = (x: OrgTab, data: OrgGeneral): ReactNode => {
    if (x === "general") return <GeneralPanel org={data} onCreated={onOrgCreated} />;
    if (x === "authentication") return <AuthenticationPanel org={data} />;
    return panels[x](role);
  };
  return (
    <Tabs value={current} onChange={(v) => v && onTab(v as OrgTab)} keepMounted={false}>
      <Tabs.List mb="lg">
        {tabs.map((x) => (
          <Tabs.Tab key={x} value={x}>
            {t(`organization.tab.${x}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {tabs.map((x) => (
        <Tabs.Panel key={x} value={x}>
          {panel(x, org.data)}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
