import { Alert } from "@mantine/core";
import { IconAlertCircle } from "@tabler/icons-react";

/** The message of a failed submit that belongs to no single field. */
export function FormError({ message, testId = "form-error" }: { message?: string; testId?: string }) {
  return message ? (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} data-testid={testId}>
      {message}
    </Alert>
  ) : null;
}
