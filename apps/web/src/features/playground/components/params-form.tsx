import { Group, NumberInput, Select, Slider, Stack, Switch, Text, TextInput, Tooltip } from "@mantine/core";
import {
  type Currency,
  findModel,
  formatMoney,
  MODELS,
  nChoicesError,
  type PlaygroundParams,
  parseMoney,
  StopSequencesText,
} from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { useFieldMessage } from "../../../lib/forms.ts";

const LISTED = MODELS.filter((m) => m.listed);

/** The model picker: every listed model with its context length and input/output price per 1M tokens. */
export function ModelSelect({
  value,
  onChange,
  currency,
  label,
  disabled,
}: {
  value: string;
  onChange: (model: string) => void;
  currency: Currency;
  label?: string;
  disabled?: boolean;
}) {
  const { t, i18n } = useTranslation("playground");
  const ctx = (n: number) => `${Math.round(n / 1024)}K`;
  const price = (v: string) => formatMoney(parseMoney(v), currency);
  const data = LISTED.map((m) => ({ value: m.id, label: m.id }));
  const model = findModel(value);
  return (
    <Stack gap={4}>
      <Select
        label={label ?? t("params.model")}
        data={data}
        value={value}
        onChange={(v) => v && onChange(v)}
        allowDeselect={false}
        searchable
        disabled={disabled}
        renderOption={({ option }) => {
          const m = findModel(option.value)!;
          return (
            <Stack gap={0}>
              <Text size="sm">{m.id}</Text>
              <Text size="xs" c="dimmed">
                {t("params.modelInfo", {
                  context: ctx(m.contextWindow),
                  input: price(m.prices[currency].input),
                  output: price(m.prices[currency].output),
                })}
              </Text>
            </Stack>
          );
        }}
        comboboxProps={{ withinPortal: true }}
        data-testid="model-select"
      />
      {model ? (
        <Text size="xs" c="dimmed" data-testid="model-info" lang={i18n.language}>
          {t("params.modelInfo", {
            context: ctx(model.contextWindow),
            input: price(model.prices[currency].input),
            output: price(model.prices[currency].output),
          })}
          {model.capabilities.vision ? ` · ${t("params.vision")}` : ""}
          {model.capabilities.reasoning ? ` · ${t("params.reasoning")}` : ""}
        </Text>
      ) : null}
    </Stack>
  );
}

/** Validates the stop field with the shared contract; the message in the user's language, or null. */
export function useStopError(stop: string): string | null {
  const fieldMessage = useFieldMessage();
  const parsed = StopSequencesText.safeParse(stop);
  return parsed.success ? null : (fieldMessage(parsed.error.issues[0]!.message) ?? null);
}

function SliderRow({
  label,
  value,
  min,
  max,
  step,
  onChange,
  disabled,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange: (v: number) => void;
  disabled?: boolean;
}) {
  return (
    <Stack gap={2}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500} component="label">
          {label}
        </Text>
        <Text size="sm" c="dimmed">
          {value}
        </Text>
      </Group>
      <Slider
        value={value}
        min={min}
        max={max}
        step={step}
        onChange={onChange}
        label={null}
        disabled={disabled}
        thumbLabel={label}
      />
    </Stack>
  );
}

/** Sampling parameters of one panel. Options the model does not support are disabled and say why. */
export function ParamsForm({
  params,
  model,
  onChange,
  disabled,
}: {
  params: PlaygroundParams;
  model: string;
  onChange: (p: PlaygroundParams) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation("playground");
  const m = findModel(model);
  const set = <K extends keyof PlaygroundParams>(k: K, v: PlaygroundParams[K]) => onChange({ ...params, [k]: v });
  const stopError = useStopError(params.stop);
  const thinking = m?.capabilities.reasoning ?? false;
  const fieldMessage = useFieldMessage();
  // Thinking models show n fixed at 1 (disabled) rather than an error; temperature 0 with n > 1 says why.
  const nKey = thinking ? null : nChoicesError(model, params.n, params.temperature);
  const nError = nKey ? (fieldMessage(nKey) ?? null) : null;
  return (
    <Stack gap="sm">
      <SliderRow
        label={t("params.temperature")}
        value={params.temperature}
        min={0}
        max={1}
        step={0.05}
        onChange={(v) => set("temperature", v)}
        disabled={disabled}
      />
      <SliderRow
        label={t("params.topP")}
        value={params.topP}
        min={0}
        max={1}
        step={0.05}
        onChange={(v) => set("topP", v)}
        disabled={disabled}
      />
      <NumberInput
        label={t("params.maxTokens")}
        value={params.maxTokens}
        min={1}
        max={m?.contextWindow ?? 262144}
        onChange={(v) => typeof v === "number" && set("maxTokens", Math.max(1, Math.floor(v)))}
        disabled={disabled}
      />
      <SliderRow
        label={t("params.presencePenalty")}
        value={params.presencePenalty}
        min={-2}
        max={2}
        step={0.1}
        onChange={(v) => set("presencePenalty", v)}
        disabled={disabled}
      />
      <SliderRow
        label={t("params.frequencyPenalty")}
        value={params.frequencyPenalty}
        min={-2}
        max={2}
        step={0.1}
        onChange={(v) => set("frequencyPenalty", v)}
        disabled={disabled}
      />
      <Tooltip label={t("params.nThinking")} disabled={!thinking} withArrow>
        <NumberInput
          label={t("params.n")}
          value={thinking ? 1 : params.n}
          min={1}
          max={5}
          onChange={(v) => typeof v === "number" && set("n", Math.min(5, Math.max(1, Math.floor(v))))}
          disabled={disabled || thinking}
          error={nError}
          data-testid="param-n"
        />
      </Tooltip>
      <TextInput
        label={t("params.stop")}
        description={t("params.stopHint")}
        value={params.stop}
        onChange={(e) => set("stop", e.currentTarget.value)}
        error={stopError}
        disabled={disabled}
        data-testid="stop-input"
      />
      <Switch
        label={t("params.jsonMode")}
        checked={params.jsonMode && m?.capabilities.jsonMode !== false}
        onChange={(e) => set("jsonMode", e.currentTarget.checked)}
        disabled={disabled || m?.capabilities.jsonMode === false}
      />
      <Switch
        label={t("params.partial")}
        description={t("params.partialHint")}
        checked={params.partial && m?.capabilities.partial !== false}
        onChange={(e) => set("partial", e.currentTarget.checked)}
        disabled={disabled || m?.capabilities.partial === false}
      />
    </Stack>
  );
}
