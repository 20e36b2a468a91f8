import { ActionIcon, Menu, useMantineColorScheme } from "@mantine/core";
import { LOCALES, type Locale } from "@moonport/contracts";
import { IconCheck, IconDeviceDesktop, IconLanguage, IconMoon, IconSun } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { switchLocale, useLocale } from "../i18n/index.ts";

const LOCALE_NAMES: Record<Locale, string> = { "zh-CN": "简体中文", "en-US": "English" };

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
    <Menu position="bottom-end" width={160} withinPortal>
      <Menu.Target>
        {/* A native title, not a Tooltip: these sit on every public page, where each floating element costs
            hydration time (Lighthouse TBT) for a hint the aria-label already gives screen readers. */}
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={t("theme.label")}
          title={t("theme.label")}
          data-testid="theme-switch"
        >
          <Current size={18} stroke={1.6} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {options.map(({ value, label, icon: Icon }) => (
          <Menu.Item
            key={value}
            leftSection={<Icon size={16} stroke={1.6} />}
            rightSection={colorScheme === value ? <IconCheck size={14} /> : null}
            onClick={() => setColorScheme(value)}
            data-testid={`theme-${value === "auto" ? "system" : value}`}
          >
            {label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** en-US / zh-CN; sets the one-year `locale` cookie and reloads so prerendered pages come back translated. */
export function LocaleSwitch() {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <Menu position="bottom-end" width={160} withinPortal>
      <Menu.Target>
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={t("language")}
          title={t("language")}
          data-testid="locale-switch"
        >
          <IconLanguage size={18} stroke={1.6} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {LOCALES.map((l) => (
          <Menu.Item
            key={l}
            lang={l}
            rightSection={l === locale ? <IconCheck size={14} /> : null}
            onClick={() => l !== locale && switchLocale(l)}
            data-testid={`locale-${l}`}
          >
            {LOCALE_NAMES[l]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
