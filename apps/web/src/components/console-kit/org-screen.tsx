import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../page-header.tsx";
import { type CurrentOrg, useCurrentOrg } from "./current-org.ts";
import { EmptyState } from "./states.tsx";

/** A console screen of the current organization: its header and body, or a designed state when there is none. */
export function OrgScreen({
  page,
  children,
  actions,
}: {
  page: "overview" | "organization" | "projects" | "apiKeys" | "limits" | "consumption";
  children: (org: CurrentOrg) => ReactNode;
  actions?: ReactNode;
}) {
  const { t } = useTranslation("org");
  const org = useCurrentOrg();
  return (
    <>
      <PageHeader title={t(`pages.${page}.title`)} description={t(`pages.${page}.description`)} actions={actions} />
      {org ? children(org) : <EmptyState title={t("pages.noOrg")} />}
    </>
  );
}
