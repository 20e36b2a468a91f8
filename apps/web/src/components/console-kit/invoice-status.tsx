import { Badge, Stack, Text } from "@mantine/core";
import {
  INVOICE_STATUS_TEXT,
  type InvoiceStatus,
  RED_LETTER_STATE_TEXT,
  type RedLetterRound,
} from "@moonport/contracts";
import { useLocale } from "../../i18n/index.ts";

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
