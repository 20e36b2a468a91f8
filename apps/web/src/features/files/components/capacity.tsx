import { Group, Paper, Progress, SimpleGrid, Text } from "@mantine/core";
import type { FileUsage } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { formatInt } from "../../../components/console-kit/money.ts";
import { useLocale } from "../../../i18n/index.ts";
import { formatBytes } from "./format-bytes.ts";

function Meter({
  label,
  used,
  of,
  value,
  testId,
}: {
  label: string;
  used: string;
  of: string;
  value: number;
  testId: string;
}) {
  return (
    <Paper withBorder p="md" radius="md" data-testid={testId}>
      <Group justify="space-between" mb={6} wrap="nowrap">
        <Text size="sm" c="dimmed">
          {label}
        </Text>
        <Text size="sm" fw={600} style={{ whiteSpace: "nowrap" }}>
          {used} / {of}
        </Text>
      </Group>
      <Progress value={value} color={value >= 90 ? "red" : value >= 70 ? "yellow" : undefined} aria-label={label} />
    </Paper>
  );
}

/** The organization's use of its file limits: files of 1,000 and bytes of 10 GB. */
export function Capacity({ usage }: { usage: FileUsage }) {
  const { t } = useTranslation("files");
  const locale = useLocale();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <Meter
        testId="files-capacity-count"
        label={t("capacity.files")}
        used={formatInt(usage.files, locale)}
        of={formatInt(usage.maxFiles, locale)}
        value={(usage.files / usage.maxFiles) * 100}
      />
      <Meter
        testId="files-capacity-bytes"
        label={t("capacity.storage")}
        used={formatBytes(usage.bytes, locale)}
        of={formatBytes(usage.maxBytes, locale)}
        value={(usage.bytes / usage.maxBytes) * 100}
      />
    </SimpleGrid>
  );
}
