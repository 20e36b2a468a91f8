import { ActionIcon, Button, Group, SegmentedControl, Stack, Text, TextInput } from "@mantine/core";
import { ImportInvoiceRequest } from "@moonport/contracts";
import { IconPlus, IconTrash } from "@tabler/icons-react";
import { Controller, useFieldArray } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { useFieldMessage } from "../../../lib/forms.ts";
import { useImportInvoice } from "../api/invoices.ts";

/**
 * Queues → Invoices → Import: records an invoice issued outside the platform over an organization's paid
 * recharges (status "imported"); its amounts are held on the payments like an application's.
 */
export function ImportInvoiceDialog({
  opened,
  onClose,
  onImported,
}: {
  opened: boolean;
  onClose: () => void;
  onImported: () => void;
}) {
  const { t } = useTranslation("admin");
  const fieldMessage = useFieldMessage();
  const importInvoice = useImportInvoice();
  const { form, field, error, dialog } = useDialogForm(ImportInvoiceRequest, {
    opened,
    onClose,
    defaultValues: {
      orgId: "",
      invoiceNo: "",
      title: "",
      titleType: "company",
      invoiceType: "general",
      method: "electronic",
      issuedOn: "",
      items: [{ paymentId: "", amount: "" }],
    },
    submit: async (v) => {
      await importInvoice.mutateAsync(v);
      onImported();
    },
    failure: (reason) => t("queues.failed", { reason }),
  });
  const items = useFieldArray({ control: form.control, name: "items" });
  // Row fields are nested (items.N.amount): read their errors from the form state; `error` marks them shown.
  const rowError = (i: number, key: "paymentId" | "amount") => {
    error(`items.${i}.${key}`);
    return fieldMessage(form.formState.errors.items?.[i]?.[key]?.message);
  };
  const segmented = (name: "titleType" | "invoiceType" | "method", values: string[], label: (v: string) => string) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field: f }) => (
        <SegmentedControl
          value={f.value}
          onChange={f.onChange}
          data={values.map((value) => ({ value, label: label(value) }))}
          data-testid={`import-${name}`}
        />
      )}
    />
  );
  return (
    <FormDialog {...dialog} title={t("invoiceImport.title")} submitLabel={t("invoiceImport.submit")} size="lg">
      <Text size="sm">{t("invoiceImport.text")}</Text>
      <TextInput label={t("invoiceImport.orgId")} required {...field("orgId")} data-testid="import-org" />
      <Group grow align="flex-start">
        <TextInput label={t("invoices.number")} required {...field("invoiceNo")} data-testid="import-number" />
        <TextInput
          label={t("invoiceImport.issuedOn")}
          placeholder="YYYY-MM-DD"
          required
          {...field("issuedOn")}
          data-testid="import-date"
        />
      </Group>
      <TextInput label={t("invoiceImport.buyer")} required {...field("title")} data-testid="import-title" />
      <Group gap="xs">
        {segmented("titleType", ["company", "personal"], (v) => t(`invoiceImport.titleTypes.${v}`))}
        {segmented("invoiceType", ["general", "special"], (v) => t(`invoices.types.${v}`))}
        {segmented("method", ["electronic", "paper"], (v) => t(`invoices.methods.${v}`))}
      </Group>
      <Stack gap="xs">
        <Text size="sm" fw={500}>
          {t("invoiceImport.payments")}
        </Text>
        {items.fields.map((row, i) => (
          <Group key={row.id} gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              style={{ flex: 2 }}
              placeholder={t("invoiceImport.paymentId")}
              aria-label={t("invoiceImport.paymentId")}
              {...form.register(`items.${i}.paymentId`)}
              error={rowError(i, "paymentId")}
              data-testid="import-payment"
            />
            <TextInput
              style={{ flex: 1 }}
              placeholder={t("invoiceImport.amount")}
              aria-label={t("invoiceImport.amount")}
              {...form.register(`items.${i}.amount`)}
              error={rowError(i, "amount")}
              data-testid="import-amount"
            />
            <ActionIcon
              variant="subtle"
              color="gray"
              mt={6}
              onClick={() => items.remove(i)}
              disabled={items.fields.length === 1}
              aria-label={t("invoiceImport.removePayment")}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        {form.formState.errors.items?.message ? (
          <Text size="xs" c="red">
            {fieldMessage(form.formState.errors.items.message)}
          </Text>
        ) : null}
        <Button
          variant="subtle"
          size="xs"
          w="fit-content"
          leftSection={<IconPlus size={14} />}
          onClick={() => items.append({ paymentId: "", amount: "" })}
          disabled={items.fields.length >= 50}
        >
          {t("invoiceImport.addPayment")}
        </Button>
      </Stack>
    </FormDialog>
  );
}
