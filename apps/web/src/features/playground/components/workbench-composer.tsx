import { Button, Group, Stack } from "@mantine/core";
import { IconPlayerPlay } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { type AttachedFile, Composer } from "./composer.tsx";

/**
 * The composer under the conversation, with Run for a conversation that ends with the user's message (a template,
 * an import or an edit). `disabled` holds sending while the session is read-only or the parameters are invalid.
 */
export function WorkbenchComposer({
  pending,
  running,
  readOnly,
  paramsInvalid,
  vision,
  onRunPending,
  onSend,
  onStop,
  onUpload,
}: {
  pending: boolean;
  running: boolean;
  readOnly: boolean;
  paramsInvalid: boolean;
  vision: boolean;
  onRunPending: () => void;
  onSend: (text: string, images: string[], files: AttachedFile[]) => void;
  onStop: () => void;
  onUpload: (file: File) => Promise<AttachedFile>;
}) {
  const { t } = useTranslation("playground");
  return (
    <Stack gap={6}>
      {pending && !running && !readOnly ? (
        <Group>
          <Button
            size="xs"
            leftSection={<IconPlayerPlay size={14} />}
            onClick={onRunPending}
            disabled={paramsInvalid}
            data-testid="run"
          >
            {t("chat.run")}
          </Button>
        </Group>
      ) : null}
      <Composer
        running={running}
        disabled={readOnly || paramsInvalid}
        disabledReason={readOnly ? t("io.readOnlyShort") : t("errors.fixParams")}
        vision={vision}
        onSend={onSend}
        onStop={onStop}
        onUpload={onUpload}
      />
    </Stack>
  );
}
