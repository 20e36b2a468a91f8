import { IconLock } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { type CurrentOrg, useCurrentOrg } from "../../../components/console-kit/current-org.ts";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { PageHeader } from "../../../components/page-header.tsx";

/**
 * A billing screen of the current organization. Bills, exports and alerts are the organization admins' (the API
 * answers members 403); members are told so instead of seeing an error.
 */
export function BillsPage({
  page,
  children,
}: {
  page: "details" | "exports" | "alerts";
  children: (org: CurrentOrg) => ReactNode;
}) {
  const { t } = useTranslation("bills");
  const org = useCurrentOrg();
  return (
    <>
      <PageHeader title={t(`pages.${page}.title`)} description={t(`pages.${page}.description`)} />
      {!org ? (
        <EmptyState title={t("noOrg")} />
      ) : org.role !== "admin" ? (
        <EmptyState icon={IconLock} title={t("adminOnly.title")} text={t("adminOnly.text")} />
      ) : (
        children(org)
      )}
    </>
  );
}
