import { Alert, Card, Group, NumberInput, Select, SimpleGrid, Stack, Text } from "@mantine/core";
import { type Currency, estimateCaching, MODELS } from "@moonport/contracts";
import { IconAlertTriangle, IconInfoCircle } from "@tabler/icons-react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatInt, money } from "../../../components/console-kit/money.ts";
import { useLocale } from "../../../i18n/index.ts";

/** The models an explicit cache serves (the moonshot-v1 family, docs/api-compat.md §7.1). */
const CACHE_MODELS = MODELS.filter((m) => m.listed && /^moonshot-v1-\d+k$/.test(m.id)).map((m) => m.id);

const int = (v: string | number, min: number) => {
  const n = typeof v === "number" ? v : Number(v);
  return Number.isFinite(n) ? Math.max(min, Math.floor(n)) : min;
};

/**
 * The savings calculator (docs/product-spec.md §2, §8): the context part of a plan priced with and without a cache, and
 * the two warnings — more context tokens per minute than the organization's TPM limit, and a cache that would
 * cost more than it saves.
 */
export function SavingsCalculator({ currency, tpm }: { currency: Currency; tpm: number | null }) {
  const { t } = useTranslation("caches");
  const locale = useLocale();
  const [model, setModel] = useState(CACHE_MODELS.at(-1) ?? "moonshot-v1-128k");
  const [tokens, setTokens] = useState<string | number>(100_000);
  const [calls, setCalls] = useState<string | number>(50);
  const [minutes, setMinutes] = useState<string | number>(60);
  const e = estimateCaching({
    model,
    currency,
    contextTokens: int(tokens, 0),
    calls: int(calls, 0),
    minutes: int(minutes, 1),
  });
  return (
    <Card withBorder padding="lg" data-testid="savings-calculator">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="md">
          <Select
            label={t("calculator.model")}
            data={CACHE_MODELS}
            value={model}
            onChange={(v) => v && setModel(v)}
            allowDeselect={false}
          />
          <NumberInput
            label={t("calculator.tokens")}
            description={t("calculator.tokensHint")}
            value={tokens}
            onChange={setTokens}
            min={0}
            max={128_000}
            thousandSeparator=","
            allowDecimal={false}
            data-testid="calc-tokens"
          />
          <NumberInput
            label={t("calculator.calls")}
            value={calls}
            onChange={setCalls}
            min={0}
            thousandSeparator=","
            allowDecimal={false}
            data-testid="calc-calls"
          />
          <NumberInput
            label={t("calculator.minutes")}
            description={t("calculator.minutesHint")}
            value={minutes}
            onChange={setMinutes}
            min={1}
            allowDecimal={false}
            data-testid="calc-minutes"
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <Figure label={t("calculator.without")} testId="calc-without">
            {money(e.withoutCache, currency)}
          </Figure>
          <Figure label={t("calculator.with")} testId="calc-with">
            {money(e.withCache, currency)}
          </Figure>
          <Figure
            label={t("calculator.savings")}
            testId="calc-savings"
            strong
            color={e.savings < 0n ? "red.7" : "teal.8"}
          >
            {money(e.savings, currency)}
          </Figure>
        </SimpleGrid>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <IconInfoCircle size={16} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
          <Text size="xs" c="dimmed">
            {t("calculator.note")}
          </Text>
        </Group>
        {tpm !== null && e.tokensPerMinute > tpm ? (
          <Alert color="yellow" icon={<IconAlertTriangle size={18} />} data-testid="calc-rate-warning">
            {t("calculator.rateWarning", {
              perMinute: formatInt(e.tokensPerMinute, locale),
              tpm: formatInt(tpm, locale),
            })}
          </Alert>
        ) : null}
        {e.savings < 0n ? (
          <Alert color="orange" icon={<IconAlertTriangle size={18} />} data-testid="calc-cost-warning">
            {t("calculator.costWarning")}
          </Alert>
        ) : null}
      </Stack>
    </Card>
  );
}

/** One result of the calculation: what it is, small, over its amount. */
function Figure(p: { label: string; testId: string; strong?: boolean; color?: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {p.label}
      </Text>
      <Text fw={p.strong ? 700 : 600} c={p.color} data-testid={p.testId}>
        {p.children}
      </Text>
    </div>
  );
}
