import { useTranslation } from "react-i18next";
import { useCurrentOrg } from "../../../src/components/console-kit/current-org.ts";
import { EmptyState } from "../../../src/components/console-kit/states.tsx";
import { AccountOverviewScreen } from "../../../src/features/billing/components/account-overview-screen.tsx";
import { AlertSummaryCard } from "../../../src/features/bills/components/alert-summary-card.tsx";

/** The account overview, with the bills feature's alert settings card composed in (features stay independent). */
export default function BillingRoute() {
  const { t } = useTranslation("org");
  const org = useCurrentOrg();
  return org ? (
    <AccountOverviewScreen key={org.id} orgId={org.id} alerts={<AlertSummaryCard orgId={org.id} />} />
  ) : (
    <EmptyState title={t("pages.noOrg")} />
  );
}
