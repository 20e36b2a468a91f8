import { Box, Group, List, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconCheck } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Logo, LogoMark } from "../../../components/logo.tsx";
import { LocaleSwitch, ThemeSwitch } from "../../../components/preferences.tsx";
import { useBrand } from "../../../lib/site-config.ts";
import classes from "./auth-layout.module.css";

/** Sign-in, sign-up and setup: a brand panel (wide screens) beside the form. */
export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation("auth");
  const brand = useBrand();
  return (
    <div className={classes.root}>
      <aside className={classes.aside}>
        <Link to="/" className={classes.brandLink}>
          <Group gap={10}>
            <LogoMark size={32} />
            <Text fw={700} fz="xl">
              {brand}
            </Text>
          </Group>
        </Link>
        <Stack gap="lg" maw={420}>
          <Title order={2} fz={32} lh={1.25}>
            {t("aside.title")}
          </Title>
          <List
            spacing="sm"
            icon={
              <ThemeIcon size={22} radius="xl" color="rgba(255,255,255,0.2)">
                <IconCheck size={14} />
              </ThemeIcon>
            }
          >
            <List.Item>{t("aside.point1")}</List.Item>
            <List.Item>{t("aside.point2")}</List.Item>
            <List.Item>{t("aside.point3")}</List.Item>
          </List>
        </Stack>
        <Text size="sm" opacity={0.7}>
          © {new Date().getFullYear()} {brand}
        </Text>
      </aside>
      <main className={classes.main}>
        <div className={classes.topbar}>
          <Box hiddenFrom="md">
            <Link to="/" className={classes.brandLink}>
              <Logo />
            </Link>
          </Box>
          <Box visibleFrom="md" />
          <Group gap="xs">
            <LocaleSwitch />
            <ThemeSwitch />
          </Group>
        </div>
        <div className={classes.form}>
          <Stack w="100%" maw={400} gap="lg">
            <Stack gap={6}>
              <Title order={1} fz={28}>
                {title}
              </Title>
              {subtitle ? (
                <Text c="dimmed" size="sm" component="div">
                  {subtitle}
                </Text>
              ) : null}
            </Stack>
            {children}
          </Stack>
        </div>
      </main>
    </div>
  );
}
