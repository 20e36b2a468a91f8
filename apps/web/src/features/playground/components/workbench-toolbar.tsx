import { Button, FileButton, Group } from "@mantine/core";
import {
  IconCode,
  IconDownload,
  IconHistory,
  IconLayoutGrid,
  IconPlus,
  IconTool,
  IconUpload,
} from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import classes from "./playground.module.css";

/** The mode switch and the session's actions: templates, history, new, import, export, tools, code. */
export function WorkbenchToolbar({
  modeSwitch,
  toolCount,
  onTemplates,
  onHistory,
  onNew,
  onImport,
  onExport,
  onTools,
  onCode,
}: {
  modeSwitch: ReactNode;
  toolCount: number;
  onTemplates: () => void;
  onHistory: () => void;
  onNew: () => void;
  onImport: (file: File | null) => void;
  onExport: () => void;
  onTools: () => void;
  onCode: () => void;
}) {
  const { t } = useTranslation("playground");
  const action = (icon: ReactNode, label: string, onClick: () => void, testId?: string) => (
    <Button size="xs" variant="default" leftSection={icon} onClick={onClick} data-testid={testId}>
      {label}
    </Button>
  );
  return (
    <Group justify="space-between" gap="xs" className={classes.toolbar}>
      {modeSwitch}
      <Group gap={6} wrap="wrap">
        {action(<IconLayoutGrid size={14} />, t("templates.open"), onTemplates)}
        {action(<IconHistory size={14} />, t("history.open"), onHistory)}
        {action(<IconPlus size={14} />, t("new"), onNew)}
        <FileButton onChange={onImport} accept="application/json,.json">
          {(props) => (
            <Button {...props} size="xs" variant="default" leftSection={<IconUpload size={14} />} data-testid="import">
              {t("io.import")}
            </Button>
          )}
        </FileButton>
        {action(<IconDownload size={14} />, t("io.export"), onExport, "export")}
        {action(<IconTool size={14} />, t("tools.open", { count: toolCount }), onTools, "tools-open")}
        {action(<IconCode size={14} />, t("code.open"), onCode, "view-code")}
      </Group>
    </Group>
  );
}
