import { Alert, Button, Group, Modal, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { Customer, translateValidation } from "@moonport/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocale } from "../../../i18n/index.ts";
import { ApiError } from "../../../lib/api.ts";
import { type CardProvider, CardRejected, useBindCard } from "../api/billing-api.ts";

const CUSTOMER_FIELDS = [
  "email",
  "firstName",
  "lastName",
  "phone",
  "street",
  "city",
  "state",
  "postcode",
  "countryCode",
] as const;

/**
 * Bind-card dialog: the customer information (required before paying) and the card. The number and CVC are sent
 * to the payment provider's tokenization endpoint only.
 */
export function BindCardDialog({
  orgId,
  provider,
  opened,
  onClose,
}: {
  orgId: string;
  provider: CardProvider;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation("billing");
  const locale = useLocale();
  const bind = useBindCard(orgId);
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const set = (k: string) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [k]: e.target.value }));

  const submit = () => {
    setFailure(null);
    const parsed = Customer.safeParse(Object.fromEntries(CUSTOMER_FIELDS.map((k) => [k, values[k] ?? ""])));
    const errs: Record<string, string> = {};
    if (!parsed.success) {
      for (const i of parsed.error.issues) errs[String(i.path[0])] = translateValidation(i.message, locale);
    }
    const [mm, yy] = (values.expiry ?? "").split("/").map((s) => Number(s.trim()));
    for (const k of ["number", "expiry", "cvc"]) if (!values[k]?.trim()) errs[k] = t("validation.required");
    setErrors(errs);
    if (Object.keys(errs).length || !parsed.success) {
      setFailure(t("card.customerRequired"));
      return;
    }
    bind.mutate(
      {
        provider,
        card: { number: values.number ?? "", cvc: values.cvc ?? "", expMonth: mm ?? 0, expYear: yy ?? 0 },
        customer: parsed.data,
      },
      {
        onSuccess: () => {
          setValues({});
          onClose();
        },
        onError: (e) =>
          setFailure(
            e instanceof CardRejected
              ? t("card.wrong")
              : t("failure.createCard", { reason: e instanceof ApiError ? e.message : t("failure.tryLater") }),
          ),
      },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t("card.bindTitle")} size="lg">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {CUSTOMER_FIELDS.map((k) => (
            <TextInput
              key={k}
              label={t(`card.field.${k}`)}
              value={values[k] ?? ""}
              onChange={set(k)}
              error={errors[k]}
              required
              data-testid={`card-${k}`}
            />
          ))}
        </SimpleGrid>
        <TextInput
          label={t("card.field.number")}
          value={values.number ?? ""}
          onChange={set("number")}
          error={errors.number}
          inputMode="numeric"
          autoComplete="cc-number"
          required
          data-testid="card-number"
        />
        <SimpleGrid cols={2}>
          <TextInput
            label={t("card.field.expiry")}
            placeholder="MM/YY"
            value={values.expiry ?? ""}
            onChange={set("expiry")}
            error={errors.expiry}
            autoComplete="cc-exp"
            required
            data-testid="card-expiry"
          />
          <TextInput
            label={t("card.field.cvc")}
            value={values.cvc ?? ""}
            onChange={set("cvc")}
            error={errors.cvc}
            autoComplete="cc-csc"
            required
            data-testid="card-cvc"
          />
        </SimpleGrid>
        {failure ? (
          <Alert color="red" data-testid="card-error">
            {failure}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button onClick={submit} loading={bind.isPending} data-testid="card-submit">
            {t("card.bind")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
