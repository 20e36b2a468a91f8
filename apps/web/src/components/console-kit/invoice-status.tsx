import { Badge, Stack, Text } from "@mantine/core";
import {
  type Currency,
  type InvoiceStatus,
  invoiceStatusText,
  type RedLetterRound,
  redLetterStateText,
} from "@moonport/contracts";
import type { ReactNode } from "react";
import { useLocale } from "../../i18n/index.ts";
import { money } from "./money.ts";

const COLOR: Record<InvoiceStatus, string> = {
  waiting: "blue",
  success: "green",
  failed: "red",
  refunding: "orange",
  refunded: "gray",
  imported: "teal",
  invalid: "gray",
};

/**
 * An invoice's status (§4) with its meaning, and the latest voiding round's confirmation state (01–09) with its
 * meaning: the console's records and the back office's queue show the same words (contracts invoiceStatusText),
 * in the invoice's edition (cn voids by a red-letter invoice, global by a credit note; told by its currency).
 */
export function InvoiceStatusCell({
  status,
  currency,
  redLetter,
  failReason,
}: {
  status: InvoiceStatus;
  currency: Currency;
  redLetter?: RedLetterRound;
  failReason?: string | null;
}) {
  const locale = useLocale();
  const text = invoiceStatusText(status, currency);
  return (
    <Stack gap={4} maw={320}>
      <Badge variant="light" color={COLOR[status]} data-testid="invoice-status" data-status={status}>
        {text.label[locale]}
      </Badge>
      <Text size="xs" c="dimmed">
        {text.meaning[locale]}
        {failReason ? ` ${failReason}` : ""}
      </Text>
      {redLetter ? (
        <Text size="xs" data-testid="red-letter-state" data-state={redLetter.state}>
          {redLetterStateText(redLetter, currency)[locale]}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The tax-inclusive amount with its net and tax under it; `caption` words them ("net ¥91.74 · tax ¥8.26"). */
export function InvoiceAmountCell({
  invoice,
  caption,
}: {
  invoice: { amount: string; net: string; tax: string; currency: Currency };
  caption: (parts: { net: string; tax: string }) => string;
}) {
  const { amount, net, tax, currency } = invoice;
  return (
    <Stack gap={0} align="flex-end">
      <Text size="sm" fw={500}>
        {money(amount, currency)}
      </Text>
      <Text size="xs" c="dimmed">
        {caption({ net: money(net, currency), tax: money(tax, currency) })}
      </Text>
    </Stack>
  );
}

/** Whom the invoice is made out to, with its kind under it ("Special VAT invoice · Electronic") and any more lines. */
export function InvoiceTitleCell({
  title,
  caption,
  children,
}: {
  title: string;
  caption: string;
  children?: ReactNode;
}) {
  return (
    <Stack gap={0}>
      <Text size="sm" fw={500}>
        {title}
      </Text>
      <Text size="xs" c="dimmed">
        {caption}
      </Text>
      {children}
    </Stack>
  );
}
