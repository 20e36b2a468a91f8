/**
 * The public site's header and footer (home, contact sales): the top navbar pages, the language and theme
 * switches, sign-in and the console, the other edition's link.
 */
import { Anchor, Burger, Button, Container, Drawer, Group, Stack, Text } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { LOCALES } from "@moonport/contracts";
import { IconWorld } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocale } from "../i18n/index.ts";
import { useSignedIn } from "../lib/session.ts";
import { otherEditionSite, useBrand } from "../lib/site-config.ts";
import { Logo } from "./logo.tsx";
import { LocaleSwitch, ThemeSwitch } from "./preferences.tsx";
import classes from "./site-frame.module.css";
import { SITE_LINKS } from "./site-links.ts";

/** A signed-in visitor is offered the console only; "Sign in" would be a dead end for them. */
function SignInLink({ button = false, onClick }: { button?: boolean; onClick?: () => void }) {
  const { t } = useTranslation("home");
  if (useSignedIn()) return null;
  return button ? (
    <Button component={Link} to="/signin" variant="default" data-testid="home-sign-in">
      {t("nav.signIn")}
    </Button>
  ) : (
    <Link to="/signin" className={classes.navLink} onClick={onClick}>
      {t("nav.signIn")}
    </Link>
  );
}

export function SiteHeader() {
  const { t } = useTranslation("home");
  const [opened, { toggle, close }] = useDisclosure(false);
  return (
    <header className={classes.header}>
      <Container size="lg" h={64}>
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Group gap="xl" wrap="nowrap">
            <Link to="/" style={{ color: "inherit", textDecoration: "none" }}>
              <Logo />
            </Link>
            <Group gap={4} visibleFrom="sm" component="nav">
              {SITE_LINKS.map((l) => (
                <Link key={l.to} to={l.to} className={classes.navLink}>
                  {t(l.label)}
                </Link>
              ))}
            </Group>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Group gap="xs" visibleFrom="sm" wrap="nowrap">
              <LocaleSwitch />
              <ThemeSwitch />
              <SignInLink button />
            </Group>
            <Button component={Link} to="/console" visibleFrom="xs" color="indigo.7">
              {t("nav.openConsole")}
            </Button>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t("nav.menu")} />
          </Group>
        </Group>
      </Container>
      <Drawer opened={opened} onClose={close} size="xs" position="right" title={<Logo />} hiddenFrom="sm">
        <Stack gap="xs">
          {SITE_LINKS.map((l) => (
            <Link key={l.to} to={l.to} className={classes.navLink} onClick={close}>
              {t(l.label)}
            </Link>
          ))}
          <SignInLink onClick={close} />
          <Group gap="xs" mt="md">
            <LocaleSwitch />
            <ThemeSwitch />
          </Group>
        </Stack>
      </Drawer>
    </header>
  );
}

export function SiteFooter() {
  const { t } = useTranslation("home");
  const brand = useBrand();
  const locale = useLocale();
  const other = otherEditionSite(locale);
  // The other edition's locale prefix sets the language cookie and redirects to its home (http/web.ts), so the
  // same link works when one host serves both editions and when each has its own host.
  const otherLocale = LOCALES.find((l) => l !== locale)!;
  return (
    <footer className={classes.footer}>
      <Container size="lg" py="xl">
        <Group justify="space-between" gap="md">
          <Stack gap={6}>
            <Logo size={24} />
            <Text size="xs" className={classes.muted}>
              © {new Date().getFullYear()} {brand}. {t("footer.rights")}
            </Text>
          </Stack>
          <Group gap="lg">
            {SITE_LINKS.map((l) => (
              <Link key={l.to} to={l.to} className={classes.footerLink}>
                {t(l.label)}
              </Link>
            ))}
            <Anchor
              href={`${other.url}/${otherLocale}`}
              hrefLang={otherLocale}
              className={classes.footerLink}
              underline="hover"
              data-testid="other-edition"
            >
              <Group gap={4} component="span">
                <IconWorld size={14} />
                {t(`footer.edition.${other.edition}`)}
              </Group>
            </Anchor>
          </Group>
        </Group>
      </Container>
    </footer>
  );
}
