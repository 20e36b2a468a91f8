import { Alert, Button, Group } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { FormError } from "../form-error.tsx";

/** The end of a settings form on a page: its error, "Saved.", and Save for those who may edit. */
export function FormFooter({
  error,
  saved,
  editable,
  submitting,
  disabled = false,
}: {
  error?: string;
  saved: boolean;
  editable: boolean;
  submitting: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation("org");
  return (
    <>
      <FormError message={error} />
      {saved ? (
        <Alert color="teal" variant="light">
          {t("general.saved")}
        </Alert>
      ) : null}
      {editable ? (
        <Group justify="flex-end">
          <Button type="submit" loading={submitting} disabled={disabled}>
            {t("common:save")}
          </Button>
        </Group>
      ) : null}
    </>
  );
}
