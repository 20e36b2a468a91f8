import { Badge, Card, Group, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import type { OrgGeneral } from "@moonport/contracts";
import { IconShieldCheck } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { CopyField } from "../../../components/console-kit/copy-field.tsx";

const COLOR = { unverified: "gray", personal: "teal", company: "indigo", company_changing: "yellow" } as const;

/**
 * Verification status of the organization. The verification flow itself is not part of this release, so the
 * panel says so instead of linking to a page that does not exist.
 */
export function AuthenticationPanel({ org }: { org: OrgGeneral }) {
  const { t } = useTranslation("org");
  return (
    <Card withBorder padding="lg" maw={640}>
      <Stack>
        <Group gap="sm">
          <ThemeIcon variant="light" size="lg" radius="xl">
            <IconShieldCheck size={20} />
          </ThemeIcon>
          <Title order={5}>{t("auth.title")}</Title>
          <Badge color={COLOR[org.verification]} variant="light" data-testid="verification-status">
            {t(`auth.status.${org.verification}`)}
          </Badge>
        </Group>
        <Text size="sm">{t(`auth.explain.${org.verification}`)}</Text>
        <Text size="sm" c="dimmed">
          {t("auth.unavailable")}
        </Text>
        <div>
          <Text size="xs" c="dimmed" mb={4}>
            {t("general.id")}
          </Text>
          <CopyField value={org.id} />
        </div>
      </Stack>
    </Card>
  );
}
