import { Group, Text } from "@mantine/core";
import type { Currency } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { formatInt, money } from "../../../components/console-kit/money.ts";
import { MAX_TOOL_STEPS } from "../model/tool-catalog.ts";
import type { RunStatus } from "./use-runner.ts";

/** Input, output and total tokens of the last run and what it was billed, in the organization's currency. */
export function RunFooter({ status, currency }: { status?: RunStatus; currency: Currency }) {
  const { t, i18n } = useTranslation("playground");
  // A stopped stream never receives its usage chunk: the bill has what was counted.
  const b = status?.bill;
  const u =
    status?.usage ??
    (b
      ? {
          prompt_tokens: b.inputTokens,
          completion_tokens: b.outputTokens,
          total_tokens: b.inputTokens + b.outputTokens,
        }
      : undefined);
  const n = (v: number | undefined) => (v === undefined ? "–" : formatInt(v, i18n.language));
  return (
    <Group
      gap="md"
      wrap="wrap"
      data-testid="run-footer"
      // The billed request id: the row of the project's Request Details this run is (e2e matches them).
      data-request-id={status?.bill?.requestId}
      role="status"
      aria-live="polite"
    >
      <Text size="xs" c="dimmed">
        {t("footer.input")} <b>{n(u?.prompt_tokens)}</b>
      </Text>
      <Text size="xs" c="dimmed">
        {t("footer.output")} <b>{n(u?.completion_tokens)}</b>
      </Text>
      <Text size="xs" c="dimmed">
        {t("footer.total")} <b>{n(u?.total_tokens)}</b>
      </Text>
      <Text size="xs" c="dimmed">
        {t("footer.cost")}{" "}
        <b data-testid="run-cost">
          {status?.bill ? money(status.bill.consumption, status.bill.currency ?? currency) : "–"}
        </b>
      </Text>
      {status?.waiting ? (
        <Text size="xs" c="blue">
          {t("footer.waiting")}
        </Text>
      ) : null}
      {status?.tools ? (
        <Text size="xs" c="blue" data-testid="tools-running">
          {t("footer.tools")}
        </Text>
      ) : null}
      {status?.stepLimit ? (
        <Text size="xs" c="orange" data-testid="step-limit">
          {t("footer.stepLimit", { max: MAX_TOOL_STEPS })}
        </Text>
      ) : null}
      {status?.finishReason && !status.running ? (
        <Text
          size="xs"
          c={status.finishReason === "length" ? "orange" : "dimmed"}
          data-testid="finish-reason"
          data-reason={status.finishReason}
        >
          {t("footer.finish", { reason: status.finishReason })}
          {status.finishReason === "length" ? ` · ${t("footer.cutOff")}` : ""}
        </Text>
      ) : null}
      {status?.stopped ? (
        <Text size="xs" c="orange">
          {t("footer.stopped")}
        </Text>
      ) : null}
    </Group>
  );
}
