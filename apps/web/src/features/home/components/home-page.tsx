import { Badge, Box, Button, Card, Container, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import {
  IconArrowRight,
  IconBook2,
  IconBraces,
  IconCode,
  IconFileStack,
  IconMessages,
  IconPlugConnected,
} from "@tabler/icons-react";
import type { ComponentType } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PageMeta } from "../../../components/page-meta.tsx";
import { SiteFooter, SiteHeader } from "../../../components/site-frame.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { useSignedIn } from "../../../lib/session.ts";
import { apiBaseUrl, useBrand } from "../../../lib/site-config.ts";
import classes from "./home.module.css";

const FEATURES: { key: string; icon: ComponentType<{ size?: number; stroke?: number }>; color: string }[] = [
  { key: "context", icon: IconFileStack, color: "indigo" },
  { key: "tools", icon: IconPlugConnected, color: "violet" },
  { key: "code", icon: IconCode, color: "cyan" },
  { key: "dialogue", icon: IconMessages, color: "teal" },
];

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

/** The public home page (docs/product-spec.md §1), prerendered in both locales. */
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
