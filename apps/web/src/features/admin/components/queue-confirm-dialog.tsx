import { useMutation } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/console-kit/form-dialog.tsx";

/**
 * Asks before one move on a queue's row (confirm a transfer, approve a verification, confirm a voiding): `run`
 * makes it (a feature mutation's `mutateAsync`); the dialog closes when it succeeded and shows why it failed.
 */
export function QueueConfirmDialog<T>({
  target,
  onClose,
  label,
  run,
  children,
}: {
  target: T | null;
  onClose: () => void;
  /** the move, as the dialog's title and its button */
  label: string;
  run: (row: T) => Promise<unknown>;
  children: ReactNode;
}) {
  const { t } = useTranslation("admin");
  const move = useMutation({ mutationFn: run });
  const close = () => {
    move.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      opened={target !== null}
      onClose={close}
      title={label}
      confirmLabel={label}
      danger={false}
      pending={move.isPending}
      error={move.error ? t("queues.failed", { reason: move.error.message }) : undefined}
      onConfirm={() => target !== null && move.mutate(target, { onSuccess: close })}
    >
      {children}
    </ConfirmDialog>
  );
}
