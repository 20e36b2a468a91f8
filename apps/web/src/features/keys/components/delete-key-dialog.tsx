import { Text } from "@mantine/core";
import type { ApiKeyRow } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { useFailureMessage } from "../../../components/console-kit/failure.ts";
import { ConfirmDialog, type RowDialogProps } from "../../../components/console-kit/form-dialog.tsx";
import { useDeleteApiKey } from "../api/delete-api-key.ts";

export function DeleteKeyDialog({ orgId, row: apiKey, onClose }: RowDialogProps<ApiKeyRow>) {
  const { t } = useTranslation("org");
  const remove = useDeleteApiKey(orgId);
  const failure = useFailureMessage();
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      opened={apiKey !== null}
      onClose={close}
      title={t("keys.deleteTitle")}
      confirmLabel={t("keys.deleteConfirm")}
      pending={remove.isPending}
      error={remove.isError ? failure("deleteKey", remove.error) : undefined}
      onConfirm={() => apiKey && remove.mutate(apiKey.id, { onSuccess: close })}
    >
      <Text size="sm">{t("keys.deleteText", { name: apiKey?.name ?? "" })}</Text>
    </ConfirmDialog>
  );
}
