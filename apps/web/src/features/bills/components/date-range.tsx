import { Group, TextInput } from "@mantine/core";
import { BillRangeQuery } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { useFieldMessage } from "../../../lib/forms.ts";

/** The range problems of the shared query schema (at most 31 days, ordered), per field. */
export function rangeProblems(range: { from: string; to: string }): { from?: string; to?: string } {
  const parsed = BillRangeQuery.safeParse(range);
  if (parsed.success) return {};
  const out: { from?: string; to?: string } = {};
  for (const issue of parsed.error.issues) {
    const k = issue.path[0] as "from" | "to";
    out[k] ??= issue.message;
  }
  return out;
}

/** From/to date inputs; the parent keeps the value and queries only a valid range. */
export function DateRange({
  value,
  onChange,
}: {
  value: { from: string; to: string };
  onChange: (v: { from: string; to: string }) => void;
}) {
  const { t } = useTranslation("bills");
  const message = useFieldMessage();
  const problems = rangeProblems(value);
  return (
    <Group gap="sm" align="flex-start" wrap="wrap">
      <TextInput
        type="date"
        label={t("range.from")}
        value={value.from}
        onChange={(e) => onChange({ ...value, from: e.currentTarget.value })}
        error={message(problems.from)}
        w={170}
        data-testid="range-from"
      />
      <TextInput
        type="date"
        label={t("range.to")}
        value={value.to}
        onChange={(e) => onChange({ ...value, to: e.currentTarget.value })}
        error={message(problems.to)}
        w={170}
        data-testid="range-to"
      />
    </Group>
  );
}
