import { SegmentedControl } from "@mantine/core";
import type { PlaygroundMode } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { MODE_SWITCH } from "../model/session.ts";

type WorkbenchMode = PlaygroundMode | "riddle";

/** The playground's modes (chat, compare, edit, riddle); modes not built yet are shown disabled. */
export function ModeSwitch({
  value,
  onChange,
  disabled,
}: {
  value: WorkbenchMode;
  onChange: (mode: WorkbenchMode) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation("playground");
  return (
    <SegmentedControl
      value={value}
      onChange={(v) => onChange(v as WorkbenchMode)}
      data={MODE_SWITCH.map((m) => ({
        value: m.value,
        disabled: !m.available,
        label: m.available ? t(`modes.${m.value}`) : `${t(`modes.${m.value}`)} · ${t("modes.soon")}`,
      }))}
      disabled={disabled}
      aria-label={t("modes.label")}
      data-testid="mode-switch"
    />
  );
}
