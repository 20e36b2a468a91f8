import { Alert } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { currentOrg } from "../../src/components/console-kit/current-org.ts";
import { ConsoleShell } from "../../src/features/console/components/console-shell.tsx";
import { PlaygroundPage } from "../../src/features/playground/components/playground-page.tsx";

function NoOrganization() {
  const { t } = useTranslation("playground");
  return <Alert color="yellow">{t("noOrg")}</Alert>;
}

/** /playground: client-only; signed-out visitors go to sign-in and come back. */
export default function PlaygroundRoute() {
  return (
    <ConsoleShell sidebar={false}>
      {(me) => {
        const org = currentOrg(me);
        return org ? <PlaygroundPage key={org.id} org={org} /> : <NoOrganization />;
      }}
    </ConsoleShell>
  );
}
