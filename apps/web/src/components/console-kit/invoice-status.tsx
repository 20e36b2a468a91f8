import { Badge, Stack, Text } from "@mantine/core";
import {
  type Currency,
  INVOICE_STATUS_TEXT,
  type InvoiceStatus,
  RED_LETTER_STATE_TEXT,
  type RedLetterRound,
} from "@moonport/contracts";
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
 * An invoice's status (§4) with its meaning, and the latest red-letter confirmation state (01–09) with its meaning:
 * the console's records and the back office's queue show the same words (contracts INVOICE_STATUS_TEXT).
 */
export function InvoiceStatusCell({
  status,
  redLetter,
  failReason,
}: {
  status: InvoiceStatus;
  redLetter?: RedLetterRound;
  failReason?: string | null;
}) {
  const locale = useLocale();
  const text = INVOICE_STATUS_TEXT[status];
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
          {RED_LETTER_STATE_TEXT[redLetter.state][locale]}
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
