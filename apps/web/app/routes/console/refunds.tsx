import { useTranslation } from "react-i18next";
import { useCurrentOrg } from "../../../src/components/console-kit/current-org.ts";
import { EmptyState } from "../../../src/components/console-kit/states.tsx";
import { RefundsScreen } from "../../../src/features/refunds/components/refunds-screen.tsx";

export default function RefundsRoute() {
  const { t } = useTranslation("org");
  const org = useCurrentOrg();
  return org ? (
    <RefundsScreen key={org.id} orgId={org.id} currency={org.currency} />
  ) : (
    <EmptyState title={t("pages.noOrg")} />
  );
}
