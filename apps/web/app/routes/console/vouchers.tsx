import { useTranslation } from "react-i18next";
import { useCurrentOrg } from "../../../src/components/console-kit/current-org.ts";
import { EmptyState } from "../../../src/components/console-kit/states.tsx";
import { VouchersScreen } from "../../../src/features/billing/components/vouchers-screen.tsx";

export default function VouchersRoute() {
  const { t } = useTranslation("org");
  const org = useCurrentOrg();
  return org ? (
    <VouchersScreen key={org.id} orgId={org.id} currency={org.currency} />
  ) : (
    <EmptyState title={t("pages.noOrg")} />
  );
}
