import { Code, ScrollArea, Stack, Text } from "@mantine/core";
import type { ConsoleFile } from "@moonport/contracts";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { InfoDialog } from "../../../components/console-kit/form-dialog.tsx";
import { LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { fileContentQuery } from "../api/get-file-content.ts";

/** The extracted text of a file, as `GET /v1/files/{id}/content` returns it to API users. */
export function FileContentDialog({
  orgId,
  file,
  onClose,
}: {
  orgId: string;
  file: ConsoleFile | null;
  onClose: () => void;
}) {
  const { t } = useTranslation("files");
  const content = useQuery({ ...fileContentQuery(orgId, file?.id ?? ""), enabled: file !== null });
  return (
    <InfoDialog
      opened={file !== null}
      onClose={onClose}
      title={t("content.title", { name: file?.filename ?? "" })}
      size="xl"
    >
      {content.isPending ? (
        <LoadingBlock rows={6} />
      ) : content.isError ? (
        <LoadError error={content.error} onRetry={() => content.refetch()} />
      ) : (
        <Stack gap="xs">
          <Text size="xs" c="dimmed">
            {t("content.hint", { count: content.data.length })}
          </Text>
          <ScrollArea.Autosize mah="60vh" type="auto">
            <Code block data-testid="files-content" style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
              {content.data}
            </Code>
          </ScrollArea.Autosize>
        </Stack>
      )}
    </InfoDialog>
  );
}
