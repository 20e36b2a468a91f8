import {
  Anchor,
  Badge,
  Box,
  Burger,
  Button,
  Card,
  Container,
  Drawer,
  Group,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import {
  IconArrowRight,
  IconBook2,
  IconBraces,
  IconCode,
  IconFileStack,
  IconMessages,
  IconPlugConnected,
  IconWorld,
} from "@tabler/icons-react";
import type { ComponentType } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Logo } from "../../../components/logo.tsx";
import { PageMeta } from "../../../components/page-meta.tsx";
import { LocaleSwitch, ThemeSwitch } from "../../../components/preferences.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { useSignedIn } from "../../../lib/session.ts";
import { apiBaseUrl, otherEditionSite, useBrand } from "../../../lib/site-config.ts";
import { SITE_LINKS } from "../site-links.ts";
import classes from "./home.module.css";

const FEATURES: { key: string; icon: ComponentType<{ size?: number; stroke?: number }>; color: string }[] = [
  { key: "context", icon: IconFileStack, color: "indigo" },
  { key: "tools", icon: IconPlugConnected, color: "violet" },
  { key: "code", icon: IconCode, color: "cyan" },
  { key: "dialogue", icon: IconMessages, color: "teal" },
];

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

function SiteHeader() {
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

function CodeSample() {
  const base = apiBaseUrl(useLocale());
  return (
    <div className={classes.codeCard}>
      <div className={classes.codeBar}>
        <span className={classes.dot} />
        <span className={classes.dot} />
        <span className={classes.dot} />
      </div>
      <pre className={classes.code}>
        <code>
          <span style={{ color: "#c792ea" }}>from</span> openai <span style={{ color: "#c792ea" }}>import</span> OpenAI
          {"\n\n"}client = OpenAI({"\n"}
          {"    "}api_key=<span style={{ color: "#c3e88d" }}>"sk-…"</span>,{"\n"}
          {"    "}base_url=<span style={{ color: "#c3e88d" }}>"{base}"</span>,{"\n"}){"\n\n"}
          reply = client.chat.completions.create({"\n"}
          {"    "}model=<span style={{ color: "#c3e88d" }}>"kimi-k2-turbo-preview"</span>,{"\n"}
          {"    "}messages=[{"{"}
          <span style={{ color: "#c3e88d" }}>"role"</span>: <span style={{ color: "#c3e88d" }}>"user"</span>,{" "}
          <span style={{ color: "#c3e88d" }}>"content"</span>: <span style={{ color: "#c3e88d" }}>"Hello!"</span>
          {"}"}],{"\n"}
          {"    "}tools=[...],{"\n"}){"\n"}
        </code>
      </pre>
    </div>
  );
}

function SiteFooter() {
  const { t } = useTranslation("home");
  const brand = useBrand();
  const other = otherEditionSite(useLocale());
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
              href={other.url}
              className={`${classes.footerLink} ${classes.otherEdition}`}
              underline="hover"
              data-two-host={other.twoHost}
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

/**
 * "Get started": new visitors create an account, someone signed in goes straight to the console. Its own component
 * so that the session answer, which arrives after hydration, re-renders one button rather than the page.
 */
function GetStartedButton() {
  const { t } = useTranslation("home");
  const startHref = useSignedIn() ? "/console" : "/signup";
  return (
    <Button
      component={Link}
      to={startHref}
      size="md"
      // indigo.6 under white text is 4.2:1; .7 meets WCAG AA (4.5:1).
      color="indigo.7"
      rightSection={<IconArrowRight size={18} />}
      data-testid="get-started"
    >
      {t("hero.start")}
    </Button>
  );
}

/** The public home page (spec §1), prerendered in both locales. */
export function HomePage() {
  const { t } = useTranslation("home");
  const brand = useBrand();
  return (
    <Box>
      <PageMeta />
      <SiteHeader />
      <main>
        <section className={classes.hero}>
          <Container size="lg" py={{ base: 48, sm: 96 }}>
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48} verticalSpacing={40}>
              <Stack gap="lg" justify="center">
                <Badge variant="light" size="lg" radius="xl" w="fit-content" tt="none">
                  {t("hero.badge")}
                </Badge>
                <Title order={1} className={classes.heroTitle}>
                  {t("hero.titleLead")} <span className={classes.gradientText}>{t("hero.titleAccent")}</span>
                </Title>
                <Text size="lg" className={classes.muted} maw={520}>
                  {t("hero.subtitle", { brand })}
                </Text>
                <Group gap="sm">
                  <GetStartedButton />
                  <Button
                    component={Link}
                    to="/docs/overview"
                    size="md"
                    variant="default"
                    leftSection={<IconBook2 size={18} />}
                  >
                    {t("hero.docs")}
                  </Button>
                </Group>
              </Stack>
              <CodeSample />
            </SimpleGrid>
          </Container>
        </section>

        <Container size="lg" py={{ base: 40, sm: 64 }}>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="lg">
            {(["params", "context", "compat", "tools"] as const).map((k) => (
              <Stack key={k} gap={4} className={classes.stat}>
                <Text fz={{ base: 28, sm: 36 }} fw={800} className={classes.gradientText}>
                  {t(`stats.${k}.value`)}
                </Text>
                <Text size="sm" className={classes.muted}>
                  {t(`stats.${k}.label`)}
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
        </Container>

        <Container size="lg" pb={{ base: 48, sm: 80 }}>
          <Stack gap="xs" align="center" mb={40} ta="center">
            <Title order={2} fz={{ base: 26, sm: 34 }}>
              {t("features.title")}
            </Title>
            <Text className={classes.muted} maw={560}>
              {t("features.subtitle")}
            </Text>
          </Stack>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg">
            {FEATURES.map(({ key, icon: Icon, color }) => (
              <Card key={key} withBorder radius="lg" padding="lg" className={classes.feature}>
                <ThemeIcon size={44} radius="md" variant="light" color={color} mb="md">
                  <Icon size={24} stroke={1.6} />
                </ThemeIcon>
                <Text fw={600} mb={6}>
                  {t(`features.${key}.title`)}
                </Text>
                <Text size="sm" className={classes.muted} lh={1.6}>
                  {t(`features.${key}.text`)}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
        </Container>

        <Container size="lg" pb={{ base: 48, sm: 96 }}>
          <div className={classes.band}>
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
              <Stack gap="sm">
                <Group gap="xs">
                  <IconBraces size={22} />
                  <Text fw={600}>{t("band.kicker")}</Text>
                </Group>
                <Title order={2} fz={{ base: 24, sm: 30 }}>
                  {t("band.title")}
                </Title>
                <Text opacity={0.85}>{t("band.text")}</Text>
              </Stack>
              <Group align="center" gap="sm" className={classes.bandActions}>
                <Button component={Link} to="/console" size="md" variant="white" color="indigo.8">
                  {t("band.console")}
                </Button>
                <Button
                  component={Link}
                  to="/docs/pricing/chat"
                  size="md"
                  variant="outline"
                  color="white"
                  style={{ borderColor: "rgba(255,255,255,0.6)" }}
                >
                  {t("band.pricing")}
                </Button>
              </Group>
            </SimpleGrid>
          </div>
        </Container>
      </main>
      <SiteFooter />
    </Box>
  );
}
