import { useTranslation } from "react-i18next";
import { useCurrentOrg } from "../../../src/components/console-kit/current-org.ts";
import { EmptyState } from "../../../src/components/console-kit/states.tsx";
import { InvoicesScreen } from "../../../src/features/invoices/components/invoices-screen.tsx";

export default function InvoicesRoute() {
  const { t } = useTranslation("org");
  const org = useCurrentOrg();
  return org ? (
    <InvoicesScreen key={org.id} orgId={org.id} currency={org.currency} />
  ) : (
    <EmptyState title={t("pages.noOrg")} />
  );
}
