import { Button, Center, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PageMeta } from "./page-meta.tsx";

/** Full-page not-found / unexpected-error screen with a way back home. */
export function ErrorPage({ kind }: { kind: "notFound" | "error" }) {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" p="md">
      <PageMeta title={t(kind === "notFound" ? "error.notFoundTitle" : "error.errorTitle")} />
      <Stack align="center" gap="sm" maw={420} ta="center">
        <Text fz={64} fw={800} c="dimmed" lh={1}>
          {kind === "notFound" ? "404" : "500"}
        </Text>
        <Title order={2}>{t(kind === "notFound" ? "error.notFoundTitle" : "error.errorTitle")}</Title>
        <Text c="dimmed">{t(kind === "notFound" ? "error.notFoundText" : "error.errorText")}</Text>
        <Button component={Link} to="/" mt="sm" variant="light">
          {t("error.backHome")}
        </Button>
      </Stack>
    </Center>
  );
}
