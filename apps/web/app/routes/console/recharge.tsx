import { useTranslation } from "react-i18next";
import { useCurrentOrg } from "../../../src/components/console-kit/current-org.ts";
import { EmptyState } from "../../../src/components/console-kit/states.tsx";
import { RechargeScreen } from "../../../src/features/billing/components/recharge-screen.tsx";

export default function RechargeRoute() {
  const { t } = useTranslation("org");
  const org = useCurrentOrg();
  return org ? <RechargeScreen key={org.id} orgId={org.id} /> : <EmptyState title={t("pages.noOrg")} />;
}
