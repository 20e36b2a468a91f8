import { Button, Group, Modal, type ModalProps, Stack } from "@mantine/core";
import type { FormEvent, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { FormError } from "../form-error.tsx";

/**
 * A dialog holding one form: title, fields, the form-level error, Cancel and the submit button. Fields are
 * disabled while the request runs. `onSubmit` comes from `useZodForm().onSubmit(...)`. `extraAction` stands at the
 * left of the buttons (a form's second action, like a test run).
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
  extraAction,
  formTestId,
  submitTestId,
  errorTestId,
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
  extraAction?: ReactNode;
  formTestId?: string;
  submitTestId?: string;
  errorTestId?: string;
}) {
  const { t } = useTranslation();
  const buttons = (
    <DialogButtons
      onCancel={onClose}
      submitLabel={submitLabel ?? t("common:save")}
      loading={submitting}
      danger={danger}
      disabled={submitDisabled}
      submitTestId={submitTestId}
      submit
    />
  );
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={size} centered>
      <form onSubmit={onSubmit} noValidate data-testid={formTestId}>
        <fieldset disabled={submitting} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack>
            {children}
            <FormError message={error} testId={errorTestId} />
            {extraAction ? (
              <Group justify="space-between" gap="sm" wrap="wrap">
                {extraAction}
                {buttons}
              </Group>
            ) : (
              buttons
            )}
          </Stack>
        </fieldset>
      </form>
    </Modal>
  );
}

/**
 * A yes/no dialog for one action (delete, revoke, remove): the text, its failure, Cancel and the action.
 * `cancelLabel` replaces "Cancel" where the action is itself a cancellation ("Keep the order" / "Cancel order").
 */
export function ConfirmDialog({
  opened,
  onClose,
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  pending,
  error,
  danger = true,
  confirmTestId,
}: {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  confirmLabel: ReactNode;
  cancelLabel?: ReactNode;
  onConfirm: () => void;
  pending: boolean;
  error?: string;
  danger?: boolean;
  confirmTestId?: string;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack>
        {children}
        <FormError message={error} />
        <DialogButtons
          onCancel={onClose}
          cancelLabel={cancelLabel}
          submitLabel={confirmLabel}
          loading={pending}
          danger={danger}
          onClick={onConfirm}
          submitTestId={confirmTestId}
        />
      </Stack>
    </Modal>
  );
}

function DialogButtons({
  onCancel,
  cancelLabel,
  submitLabel,
  loading,
  danger,
  disabled = false,
  submit = false,
  onClick,
  submitTestId,
}: {
  onCancel: () => void;
  cancelLabel?: ReactNode;
  submitLabel: ReactNode;
  loading: boolean;
  danger: boolean;
  disabled?: boolean;
  submit?: boolean;
  onClick?: () => void;
  submitTestId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={onCancel}>
        {cancelLabel ?? t("common:cancel")}
      </Button>
      <Button
        type={submit ? "submit" : "button"}
        color={danger ? "red" : undefined}
        loading={loading}
        disabled={disabled}
        onClick={onClick}
        data-testid={submitTestId}
      >
        {submitLabel}
      </Button>
    </Group>
  );
}

/**
 * A dialog that shows something once made or looked up (a new secret, codes, a link, a file's text): the content,
 * then `actions` and Done. Without `doneLabel` it has no footer and closes from its header.
 */
export function InfoDialog({
  opened,
  onClose,
  title,
  size = "lg",
  doneLabel,
  actions,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  size?: ModalProps["size"];
  doneLabel?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={size} centered>
      <Stack>
        {children}
        {doneLabel ? (
          <Group justify="flex-end">
            {actions}
            <Button onClick={onClose}>{doneLabel}</Button>
          </Group>
        ) : null}
      </Stack>
    </Modal>
  );
}

/** Props of a dialog about one row of an organization's list; `row` null means closed. */
export interface RowDialogProps<T> {
  orgId: string;
  row: T | null;
  onClose: () => void;
}
