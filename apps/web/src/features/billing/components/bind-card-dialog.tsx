import { SimpleGrid, TextInput } from "@mantine/core";
import { Customer, type InvoiceInfo, requiredText } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
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

/** The card's fields, with what lets the browser fill them in. */
const CARD_INPUTS = [
  { name: "number", autoComplete: "cc-number", inputMode: "numeric" },
  { name: "expiry", autoComplete: "cc-exp", placeholder: "MM/YY" },
  { name: "cvc", autoComplete: "cc-csc", inputMode: "numeric" },
] as const;

/** The customer information and the card; the card's three fields are checked by the provider, here only given. */
const BindCardForm = Customer.extend({ number: requiredText(32), expiry: requiredText(7), cvc: requiredText(4) });

/**
 * What the saved invoice information already says about the customer (global: card payments need it first). The
 * name is left out: it may be a company's, and the provider wants the cardholder's first and last name.
 */
function knownCustomer(info: InvoiceInfo | null | undefined) {
  const empty = Object.fromEntries(CUSTOMER_FIELDS.map((k) => [k, ""])) as Record<
    (typeof CUSTOMER_FIELDS)[number],
    string
  >;
  if (!info) return empty;
  return {
    ...empty,
    email: info.email,
    street: info.street,
    city: info.city,
    state: info.state ?? "",
    postcode: info.postal_code,
    countryCode: info.country_code,
  };
}

/**
 * Bind-card dialog: the customer information (required before paying, prefilled from the invoice information) and
 * the card. The number and CVC are sent to the payment provider's tokenization endpoint only.
 */
export function BindCardDialog({
  orgId,
  provider,
  opened,
  onClose,
  invoiceInfo,
}: {
  orgId: string;
  provider: CardProvider;
  opened: boolean;
  onClose: () => void;
  invoiceInfo?: InvoiceInfo | null;
}) {
  const { t } = useTranslation("billing");
  const bind = useBindCard(orgId);
  const { field, dialog } = useDialogForm(BindCardForm, {
    opened,
    onClose,
    defaultValues: { ...knownCustomer(invoiceInfo), number: "", expiry: "", cvc: "" },
    submit: ({ number, expiry, cvc, ...customer }) => {
      const [mm, yy] = expiry.split("/").map((s) => Number(s.trim()));
      return bind.mutateAsync({
        provider,
        card: { number, cvc, expMonth: mm ?? 0, expYear: yy ?? 0 },
        customer,
      });
    },
    failure: (reason, e) =>
      e instanceof CardRejected
        ? t("card.wrong")
        : t("failure.createCard", { reason: e instanceof ApiError ? reason : t("failure.tryLater") }),
  });

  return (
    <FormDialog
      {...dialog}
      title={t("card.bindTitle")}
      submitLabel={t("card.bind")}
      size="lg"
      submitTestId="card-submit"
      errorTestId="card-error"
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {CUSTOMER_FIELDS.map((k) => (
          <TextInput key={k} label={t(`card.field.${k}`)} required {...field(k)} data-testid={`card-${k}`} />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {CARD_INPUTS.map(({ name, ...props }) => (
          <TextInput
            key={name}
            label={t(`card.field.${name}`)}
            required
            {...props}
            {...field(name)}
            data-testid={`card-${name}`}
          />
        ))}
      </SimpleGrid>
    </FormDialog>
  );
}
