import { Alert, Anchor } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { paths } from "../../../lib/paths.ts";

/** Invoicing needs identity verification (§6): what is missing, with the way to the authentication tab. */
export function VerificationGate() {
  const { t } = useTranslation("invoices");
  return (
    <Alert color="yellow" data-testid="invoice-gate">
      {t("gate")}{" "}
      <Anchor component={Link} to={paths.organization("authentication")}>
        {t("gateLink")}
      </Anchor>
    </Alert>
  );
}
