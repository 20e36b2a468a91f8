import { Text } from "@mantine/core";
import type { ConsoleFile } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { ConfirmDialog, type RowDialogProps } from "../../../components/console-kit/form-dialog.tsx";
import { ApiError } from "../../../lib/api.ts";
import { useDeleteFile } from "../api/delete-file.ts";

export function DeleteFileDialog({ orgId, row: file, onClose }: RowDialogProps<ConsoleFile>) {
  const { t } = useTranslation("files");
  const remove = useDeleteFile(orgId);
  const close = () => {
    remove.reset();
    onClose();
  };
  const reason = remove.error instanceof ApiError ? remove.error.message : t("failure.tryLater");
  return (
    <ConfirmDialog
      opened={file !== null}
      onClose={close}
      title={t("delete.title")}
      confirmLabel={t("delete.confirm")}
      pending={remove.isPending}
      error={remove.isError ? t("failure.delete", { reason }) : undefined}
      onConfirm={() => file && remove.mutate(file.id, { onSuccess: close })}
    >
      <Text size="sm">{t("delete.text", { name: file?.filename ?? "" })}</Text>
    </ConfirmDialog>
  );
}
