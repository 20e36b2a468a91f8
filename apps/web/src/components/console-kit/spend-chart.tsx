import { BarChart } from "@mantine/charts";
import type { Currency, SpendPoint } from "@moonport/contracts";
import { chartValue, money } from "./money.ts";

/** Spend per day (or month) as bars; the tooltip shows the exact formatted amount. */
export function SpendChart({
  series,
  currency,
  height = 220,
  label,
}: {
  series: SpendPoint[];
  currency: Currency;
  height?: number;
  label: string;
}) {
  const data = series.map((p) => ({
    label: p.label.length > 7 ? p.label.slice(8) : p.label.slice(5),
    full: p.label,
    amount: chartValue(p.amount),
    raw: p.amount,
  }));
  return (
    <BarChart
      h={height}
      data={data}
      dataKey="label"
      series={[{ name: "amount", label, color: "indigo.5" }]}
      tickLine="y"
      gridAxis="y"
      valueFormatter={(v) => money(BigInt(Math.round(v * 1e9)), currency)}
      barProps={{ radius: [3, 3, 0, 0] }}
      withTooltip
    />
  );
}
