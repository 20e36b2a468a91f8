import {
  Alert,
  Anchor,
  AppShell,
  Burger,
  Button,
  Center,
  Divider,
  Group,
  Loader,
  NavLink,
  ScrollArea,
  Stack,
  Text,
} from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import type { MeWithOrgs } from "@moonport/contracts";
import { IconAlertTriangle } from "@tabler/icons-react";
import { type ReactNode, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router";
import { ForbiddenScreen } from "../../../components/console-kit/states.tsx";
import { Logo } from "../../../components/logo.tsx";
import { LocaleSwitch, ThemeSwitch } from "../../../components/preferences.tsx";
import { paths } from "../../../lib/paths.ts";
import { isSignedOut, useMe } from "../../auth/api/get-me.ts";
import { CONSOLE_NAV, CONSOLE_SITE_LINKS, type ConsoleNavSection } from "../nav.ts";
import classes from "./console-shell.module.css";
import { OrgSwitcher } from "./org-switcher.tsx";
import { UserMenu } from "./user-menu.tsx";

function isActive(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}

/** The admin-only sidebar entry a path belongs to, if any (the longest match: /billing/recharge, not /billing). */
function adminOnlyEntry(nav: ConsoleNavSection[], pathname: string) {
  const matches = nav.flatMap((s) => s.entries).filter((e) => isActive(pathname, e.to));
  const entry = matches.sort((a, b) => b.to.length - a.to.length)[0];
  return entry?.adminOnly ? entry : undefined;
}

/** Gray-7 rather than "dimmed": small gray-6 links on white miss WCAG AA contrast (Lighthouse). */
const SITE_LINK_COLOR = "light-dark(var(--mantine-color-gray-7), var(--mantine-color-dark-1))";

/**
 * The console frame: header (brand, organization switcher, theme, language, user menu) and the sidebar from
 * CONSOLE_NAV. Signed-out visitors are sent to sign-in and come back here afterwards.
 */
export function ConsoleShell({
  children,
  sidebar = true,
  nav = CONSOLE_NAV,
  orgSwitcher = true,
  home = paths.console,
}: {
  children: (me: MeWithOrgs) => ReactNode;
  /** Full-width pages of the top navbar (the playground) have no console sidebar. */
  sidebar?: boolean;
  /** The sidebar's sections (the back office brings its own). */
  nav?: ConsoleNavSection[];
  /** The organization switcher (the back office works across organizations). */
  orgSwitcher?: boolean;
  /** Where the logo leads. */
  home?: string;
}) {
  const { t } = useTranslation("console");
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  const navigate = useNavigate();
  const me = useMe();
  const signedOut = isSignedOut(me.error);

  useEffect(() => {
    if (signedOut) {
      const next = `${location.pathname}${location.search}`;
      navigate(paths.signIn(next), { replace: true });
    }
  }, [signedOut, location.pathname, location.search, navigate]);

  // Close the mobile menu after navigating.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change only
  useEffect(() => close(), [location.pathname]);

  if (me.isPending || signedOut) {
    return (
      <Center h="100vh">
        <Loader type="dots" />
      </Center>
    );
  }
  if (me.isError) {
    return (
      <Center h="100vh" p="md">
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title={t("loadFailed")} maw={420}>
          <Stack gap="sm">
            <Text size="sm">{me.error.message}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => me.refetch()} w="fit-content">
              {t("retry")}
            </Button>
          </Stack>
        </Alert>
      </Center>
    );
  }

  const user = me.data;
  const role = user.organizations.find((o) => o.id === user.currentOrganizationId)?.role;
  // A member who opens an admin-only screen by its address gets the reason, not the API's refusal.
  const locked = role === "member" ? adminOnlyEntry(nav, location.pathname) : undefined;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 248, breakpoint: "sm", collapsed: { mobile: !opened, desktop: !sidebar } }}
      padding={{ base: "md", sm: "xl" }}
    >
      <AppShell.Header className={classes.header}>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t("nav.toggle")} />
            <Link to={home} style={{ textDecoration: "none", color: "inherit" }} aria-label={t("nav.home")}>
              <Logo compact />
            </Link>
            <Divider orientation="vertical" visibleFrom="sm" />
            {orgSwitcher ? <OrgSwitcher me={user} /> : null}
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Group gap="xs" visibleFrom="sm" wrap="nowrap">
              {CONSOLE_SITE_LINKS.map(({ to, label }) => (
                <Anchor key={to} component={Link} to={to} size="sm" c={SITE_LINK_COLOR} underline="hover">
                  {t(label)}
                </Anchor>
              ))}
              <LocaleSwitch />
              <ThemeSwitch />
            </Group>
            <UserMenu me={user} />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar className={classes.navbar} p="sm">
        <AppShell.Section grow component={ScrollArea}>
          <Stack gap="lg">
            {nav.map((section) => {
              const entries = section.entries.filter((e) => !e.adminOnly || role === "admin");
              if (entries.length === 0) return null;
              return (
                <Stack key={section.label} gap={2}>
                  <Text size="xs" fw={600} c="dimmed" tt="uppercase" px="sm" pb={4}>
                    {t(section.label)}
                  </Text>
                  {entries.map(({ to, label, icon: Icon, exact }) => (
                    <NavLink
                      key={to}
                      component={Link}
                      to={to}
                      label={t(label)}
                      leftSection={<Icon size={18} stroke={1.6} />}
                      active={exact ? location.pathname === to : isActive(location.pathname, to)}
                      className={classes.navLink}
                    />
                  ))}
                </Stack>
              );
            })}
          </Stack>
        </AppShell.Section>
        <AppShell.Section hiddenFrom="sm" pt="sm">
          <Divider mb="sm" />
          <Group gap="xs">
            {CONSOLE_SITE_LINKS.map(({ to, label }) => (
              <Anchor key={to} component={Link} to={to} size="sm">
                {t(label)}
              </Anchor>
            ))}
            <LocaleSwitch />
            <ThemeSwitch />
          </Group>
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main className={classes.main}>
        {locked ? <ForbiddenScreen title={t(locked.label)} /> : children(user)}
      </AppShell.Main>
    </AppShell>
  );
}
