import { Alert } from "@mantine/core";

/** The message of a failed submit that belongs to no single field. */
export function FormError({ message }: { message?: string }) {
  return message ? (
    <Alert color="red" variant="light" data-testid="form-error">
      {message}
    </Alert>
  ) : null;
}
