import { ActionIcon, Code, CopyButton, Group, Tooltip } from "@mantine/core";
import { IconCheck, IconCopy } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";

/** A value with a copy button (ids, invitation links). */
export function CopyField({ value, label }: { value: string; label?: string }) {
  const { t } = useTranslation("org");
  return (
    <Group gap={6} wrap="nowrap">
      <Code style={{ wordBreak: "break-all" }}>{label ?? value}</Code>
      <CopyButton value={value} timeout={2000}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t("common:copied") : t("common:copy")} withArrow>
            <ActionIcon variant="subtle" color={copied ? "teal" : "gray"} onClick={copy} aria-label={t("common:copy")}>
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
