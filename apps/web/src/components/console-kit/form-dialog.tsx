import { Button, Group, Modal, type ModalProps, Stack } from "@mantine/core";
import type { FormEvent, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { FormError } from "../form-error.tsx";

/**
 * A dialog holding one form: title, fields, the form-level error, Cancel and the submit button. Fields are
 * disabled while the request runs. `onSubmit` comes from `useZodForm().onSubmit(...)`.
 */
export function FormDialog({
  opened,
  onClose,
  title,
  onSubmit,
  submitting,
  submitLabel,
  error,
  size,
  children,
  danger = false,
  submitDisabled = false,
}: {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  onSubmit: (e?: FormEvent) => unknown;
  submitting: boolean;
  submitLabel?: ReactNode;
  error?: string;
  size?: ModalProps["size"];
  children: ReactNode;
  danger?: boolean;
  submitDisabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={size} centered>
      <form onSubmit={onSubmit} noValidate>
        <fieldset disabled={submitting} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack>
            {children}
            <FormError message={error} />
            <DialogButtons
              onCancel={onClose}
              submitLabel={submitLabel ?? t("common:save")}
              loading={submitting}
              danger={danger}
              disabled={submitDisabled}
              submit
            />
          </Stack>
        </fieldset>
      </form>
    </Modal>
  );
}

/** A yes/no dialog for one action (delete, revoke, remove): the text, its failure, Cancel and the action. */
export function ConfirmDialog({
  opened,
  onClose,
  title,
  children,
  confirmLabel,
  onConfirm,
  pending,
  error,
  danger = true,
}: {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  confirmLabel: ReactNode;
  onConfirm: () => void;
  pending: boolean;
  error?: string;
  danger?: boolean;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack>
        {children}
        <FormError message={error} />
        <DialogButtons
          onCancel={onClose}
          submitLabel={confirmLabel}
          loading={pending}
          danger={danger}
          onClick={onConfirm}
        />
      </Stack>
    </Modal>
  );
}

function DialogButtons({
  onCancel,
  submitLabel,
  loading,
  danger,
  disabled = false,
  submit = false,
  onClick,
}: {
  onCancel: () => void;
  submitLabel: ReactNode;
  loading: boolean;
  danger: boolean;
  disabled?: boolean;
  submit?: boolean;
  onClick?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={onCancel}>
        {t("common:cancel")}
      </Button>
      <Button
        type={submit ? "submit" : "button"}
        color={danger ? "red" : undefined}
        loading={loading}
        disabled={disabled}
        onClick={onClick}
      >
        {submitLabel}
      </Button>
    </Group>
  );
}

/** Props of a dialog about one row of an organization's list; `row` null means closed. */
export interface RowDialogProps<T> {
  orgId: string;
  row: T | null;
  onClose: () => void;
}
