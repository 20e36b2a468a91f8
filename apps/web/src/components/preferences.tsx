import { ActionIcon, Menu, useMantineColorScheme } from "@mantine/core";
import { LOCALES, type Locale } from "@moonport/contracts";
import { IconCheck, IconDeviceDesktop, IconLanguage, IconMoon, IconSun } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { switchLocale, useLocale } from "../i18n/index.ts";

const LOCALE_NAMES: Record<Locale, string> = { "zh-CN": "简体中文", "en-US": "English" };

interface Choice {
  key: string;
  label: string;
  icon?: ReactNode;
  lang?: string;
  testId: string;
  onPick: () => void;
}

/** A header icon opening a list of choices, the current one checked. */
function ChoiceMenu({
  label,
  icon,
  testId,
  current,
  choices,
}: {
  label: string;
  icon: ReactNode;
  testId: string;
  current: string;
  choices: Choice[];
}) {
  return (
    <Menu position="bottom-end" width={160} withinPortal>
      <Menu.Target>
        {/* A native title, not a Tooltip: these sit on every public page, where each floating element costs
            hydration time (Lighthouse TBT) for a hint the aria-label already gives screen readers. */}
        <ActionIcon variant="default" size="lg" aria-label={label} title={label} data-testid={testId}>
          {icon}
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {choices.map((c) => (
          <Menu.Item
            key={c.key}
            lang={c.lang}
            leftSection={c.icon}
            rightSection={c.key === current ? <IconCheck size={14} /> : null}
            onClick={c.onPick}
            data-testid={c.testId}
          >
            {c.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** Light / dark / system; the choice is stored in localStorage `theme` by the colour-scheme manager. */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const options = [
    { value: "light", label: t("theme.light"), icon: IconSun },
    { value: "dark", label: t("theme.dark"), icon: IconMoon },
    { value: "auto", label: t("theme.system"), icon: IconDeviceDesktop },
  ] as const;
  const Current = options.find((o) => o.value === colorScheme)?.icon ?? IconDeviceDesktop;
  return (
    <ChoiceMenu
      label={t("theme.label")}
      icon={<Current size={18} stroke={1.6} />}
      testId="theme-switch"
      current={colorScheme}
      choices={options.map(({ value, label, icon: Icon }) => ({
        key: value,
        label,
        icon: <Icon size={16} stroke={1.6} />,
        testId: `theme-${value === "auto" ? "system" : value}`,
        onPick: () => setColorScheme(value),
      }))}
    />
  );
}

/** en-US / zh-CN; sets the one-year `locale` cookie and reloads so prerendered pages come back translated. */
export function LocaleSwitch() {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <ChoiceMenu
      label={t("language")}
      icon={<IconLanguage size={18} stroke={1.6} />}
      testId="locale-switch"
      current={locale}
      choices={LOCALES.map((l) => ({
        key: l,
        label: LOCALE_NAMES[l],
        lang: l,
        testId: `locale-${l}`,
        onPick: () => l !== locale && switchLocale(l),
      }))}
    />
  );
}
