/**
 * Pricing tables for the docs (content/docs/README.md "Components"): rows come from the model catalog and tier
 * tables in packages/contracts, in the page locale's currency (zh-CN → CNY, en-US → USD). Nothing is typed by hand.
 */
import {
  CONTEXT_CACHING_PRICES,
  type Currency,
  formatMoney,
  MODELS,
  type ModelCapabilities,
  type PriceGroup,
  parseMoney,
  TIERS,
  TOOL_PRICES,
} from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { localeCurrency, localeEdition } from "../../../lib/site-config.ts";
import { useDocs } from "../hooks/use-docs.ts";

function useCurrency(): Currency {
  const { locale } = useDocs();
  return localeCurrency(locale);
}

/** Enough decimals to show the price exactly (prices like 0.0015 must not round to 0.00). */
function price(value: string, currency: Currency): string {
  const decimals = value.includes(".") ? value.split(".")[1]!.length : 0;
  return formatMoney(parseMoney(value), currency, Math.max(2, decimals));
}

const tokens = (n: number) => n.toLocaleString("en-US");

export function PriceTable({ group }: { group: PriceGroup }) {
  const { t } = useTranslation("docs");
  const currency = useCurrency();
  const rows = MODELS.filter((m) => m.priceGroup === group && !m.routesTo);
  if (!rows.length) throw new Error(`PriceTable: no models in group ${group}`);
  const withCache = rows.some((m) => m.prices[currency].cacheHit !== null);
  return (
    <table>
      <thead>
        <tr>
          <th>{t("tables.model")}</th>
          <th>{t("tables.unit")}</th>
          {withCache && <th>{t("tables.cacheHit")}</th>}
          <th>{t("tables.input")}</th>
          <th>{t("tables.output")}</th>
          <th>{t("tables.context")}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((m) => {
          const p = m.prices[currency];
          return (
            <tr key={m.id}>
              <td>
                <code>{m.id}</code>
              </td>
              <td>{t("tables.perMillion")}</td>
              {withCache && <td>{p.cacheHit === null ? t("tables.notAvailable") : price(p.cacheHit, currency)}</td>}
              <td>{price(p.input, currency)}</td>
              <td>{price(p.output, currency)}</td>
              <td>{tokens(m.contextWindow)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function CachingPriceTable() {
  const { t } = useTranslation("docs");
  const currency = useCurrency();
  const c = CONTEXT_CACHING_PRICES[currency];
  return (
    <table>
      <thead>
        <tr>
          <th>{t("tables.create")}</th>
          <th>{t("tables.storage")}</th>
          <th>{t("tables.call")}</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <td>
            {price(c.create, currency)} / {t("tables.perMillion")}
          </td>
          <td>
            {price(c.storagePerMinute, currency)} / {t("tables.perMillionPerMinute")}
          </td>
          <td>
            {price(c.call, currency)} / {t("tables.perCall")}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

export function ToolPriceTable() {
  const { t } = useTranslation("docs");
  const { locale } = useDocs();
  const currency = useCurrency();
  return (
    <table>
      <thead>
        <tr>
          <th>{t("tables.tool")}</th>
          <th>{t("tables.price")}</th>
          <th>{t("tables.notes")}</th>
        </tr>
      </thead>
      <tbody>
        {TOOL_PRICES.map((tool) => (
          <tr key={tool.name}>
            <td>
              {tool.displayName[locale]} (<code>{tool.name}</code>)
            </td>
            <td>
              {price(tool.price[currency], currency)} / {t("tables.perCall")}
            </td>
            <td>{tool.comment[locale]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function TierTable() {
  const { t } = useTranslation("docs");
  const { locale } = useDocs();
  const edition = localeEdition(locale);
  const currency = localeCurrency(locale);
  return (
    <table>
      <thead>
        <tr>
          <th>{t("tables.tier")}</th>
          <th>{t("tables.recharge")}</th>
          <th>{t("tables.concurrency")}</th>
          <th>{t("tables.rpm")}</th>
          <th>{t("tables.tpm")}</th>
          <th>{t("tables.tpd")}</th>
        </tr>
      </thead>
      <tbody>
        {TIERS[edition].map((tier) => (
          <tr key={tier.tier}>
            <td>{t(`common:tierName.${tier.tier}`)}</td>
            <td>{formatMoney(tier.cumulativeRecharge, currency, 0)}</td>
            <td>{tokens(tier.concurrency)}</td>
            <td>{tokens(tier.rpm)}</td>
            <td>{tokens(tier.tpm)}</td>
            <td>{tier.tpd === null ? t("tables.unlimited") : tokens(tier.tpd)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const CAPABILITIES: (keyof ModelCapabilities)[] = [
  "vision",
  "toolCalls",
  "jsonMode",
  "jsonSchema",
  "toolChoiceRequired",
  "partial",
  "webSearch",
  "reasoning",
  "autoCaching",
];

export function ModelTable() {
  const { t } = useTranslation("docs");
  return (
    <table>
      <thead>
        <tr>
          <th>{t("tables.model")}</th>
          <th>{t("tables.context")}</th>
          <th>{t("tables.capabilities")}</th>
        </tr>
      </thead>
      <tbody>
        {MODELS.filter((m) => m.listed).map((m) => (
          <tr key={m.id}>
            <td>
              <code>{m.id}</code>
            </td>
            <td>{tokens(m.contextWindow)}</td>
            <td>
              {[
                ...CAPABILITIES.filter((c) => m.capabilities[c]).map((c) => t(`tables.${c}`)),
                ...(m.routesTo ? [t("tables.routes", { models: m.routesTo.join(" / ") })] : []),
              ].join(", ")}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
