import { Alert, Text } from "@mantine/core";
import type { PlaygroundSessionState } from "@moonport/contracts";
import { useTranslation } from "react-i18next";

export interface Notice {
  color: string;
  text: string;
}

/** Above the conversation: read-only imports, the last notice (saved, imported, failed) and the tools in use. */
export function WorkbenchNotices({
  state,
  notice,
  onDismiss,
}: {
  state: PlaygroundSessionState;
  notice: Notice | null;
  onDismiss: () => void;
}) {
  const { t } = useTranslation("playground");
  return (
    <>
      {state.readOnly ? (
        <Alert color="yellow" data-testid="read-only">
          {t("io.readOnly")}
        </Alert>
      ) : null}
      {notice ? (
        <Alert
          color={notice.color}
          withCloseButton
          onClose={onDismiss}
          closeButtonLabel={t("common:cancel")}
          data-testid="notice"
        >
          {notice.text}
        </Alert>
      ) : null}
      {state.tools.length ? (
        <Text size="xs" c="dimmed" data-testid="tools-count">
          {t("tools.count", { count: state.tools.length, names: state.tools.map((x) => x.function.name).join(", ") })}
        </Text>
      ) : null}
    </>
  );
}
