import { Alert, Badge, Box, Button, Code, Group, List, Paper, Stack, Text, Textarea, Title } from "@mantine/core";
import {
  checkRiddlePrompt,
  promptLength,
  type RiddleAttempt,
  type RiddleView,
  riddleRuleText,
} from "@moonport/contracts";
import { IconCheck, IconGift, IconLock, IconPlayerPlay, IconX } from "@tabler/icons-react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CurrentOrg } from "../../../components/console-kit/current-org.ts";
import { money } from "../../../components/console-kit/money.ts";
import { orgKey } from "../../../components/console-kit/org-api.ts";
import { useLocale } from "../../../i18n/index.ts";
import { ApiError } from "../../../lib/api.ts";
import { claimRiddleReward, riddleAttemptsQuery, submitRiddle } from "../api/riddles.ts";
import classes from "./playground.module.css";

type Verdict = { attempt: RiddleAttempt; solvedNow: boolean };

/** One riddle: its card, the prompt editor with live rule checks, the streamed answer, verdict, reward and attempts. */
export function RiddleWorkspace({
  org,
  projectId,
  riddle,
  next,
  onNext,
}: {
  org: CurrentOrg;
  projectId: string;
  riddle: RiddleView;
  next: RiddleView | undefined;
  onNext: (id: string) => void;
}) {
  const { t } = useTranslation("playground");
  const locale = useLocale();
  const qc = useQueryClient();
  const [prompt, setPrompt] = useState("");
  const [answer, setAnswer] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [claiming, setClaiming] = useState(false);
  const [claimFailure, setClaimFailure] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const attempts = useQuery(riddleAttemptsQuery(org.id, riddle.id));
  useEffect(() => () => abort.current?.abort(), []);

  const problems = useMemo(
    () => checkRiddlePrompt(riddle.promptRules, prompt, locale),
    [riddle.promptRules, prompt, locale],
  );
  const reward = money(riddle.reward.amount, riddle.reward.currency as "CNY" | "USD");
  const locked = riddle.state === "locked";

  const submit = async () => {
    setRunning(true);
    setFailure(null);
    setVerdict(null);
    setAnswer("");
    const ctl = new AbortController();
    abort.current = ctl;
    try {
      const v = await submitRiddle(org.id, projectId, riddle.id, prompt, setAnswer, ctl.signal);
      setVerdict(v);
      await qc.invalidateQueries({ queryKey: orgKey(org.id) });
    } catch (e) {
      if (ctl.signal.aborted) return;
      setAnswer(null);
      setFailure(t("riddle.submitFailed", { reason: e instanceof ApiError ? e.message : t("riddle.tryLater") }));
      await qc.invalidateQueries({ queryKey: orgKey(org.id) });
    } finally {
      setRunning(false);
    }
  };

  const claim = async () => {
    setClaiming(true);
    setClaimFailure(null);
    try {
      await claimRiddleReward(org.id, riddle.id);
      await qc.invalidateQueries({ queryKey: orgKey(org.id) });
    } catch (e) {
      setClaimFailure(t("riddle.claimFailed", { reason: e instanceof ApiError ? e.message : t("riddle.tryLater") }));
    } finally {
      setClaiming(false);
    }
  };

  return (
    <Stack gap="md" data-testid="riddle-card">
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-start" gap="xs">
            <Title order={2} size="h4">
              {riddle.title}
            </Title>
            <Group gap={6}>
              <Badge variant="light">{t(`riddle.difficulty.${riddle.difficulty}`)}</Badge>
              <Badge variant="outline" color="gray" tt="none">
                {riddle.model}
              </Badge>
              <Badge variant="light" color="grape" leftSection={<IconGift size={12} />} tt="none">
                {t("riddle.reward", { amount: reward })}
              </Badge>
            </Group>
          </Group>
          <Text size="sm">{riddle.story}</Text>
          <Text size="sm" fw={600}>
            {t("riddle.goal")}: {riddle.goal}
          </Text>
          {riddle.system ? (
            <Box>
              <Text size="xs" c="dimmed" mb={4}>
                {t("riddle.system")}
              </Text>
              <Code block className={classes.riddleSystem}>
                {riddle.system}
              </Code>
            </Box>
          ) : null}
          <Box>
            <Text size="xs" c="dimmed" mb={4}>
              {t("riddle.answerRules")}
            </Text>
            <List size="sm" spacing={2}>
              {riddle.ruleTexts.answer.map((r) => (
                <List.Item key={r}>{r}</List.Item>
              ))}
            </List>
          </Box>
        </Stack>
      </Paper>

      {locked ? (
        <Alert color="gray" icon={<IconLock size={16} />} data-testid="riddle-locked">
          {t("riddle.lockedHint")}
        </Alert>
      ) : (
        <Paper withBorder p="md" radius="md">
          <Stack gap="sm">
            <Textarea
              label={t("riddle.prompt")}
              placeholder={t("riddle.promptPlaceholder")}
              autosize
              minRows={3}
              maxRows={10}
              value={prompt}
              onChange={(e) => setPrompt(e.currentTarget.value)}
              disabled={running}
              data-testid="riddle-prompt"
            />
            <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
              <Stack gap={2} data-testid="riddle-prompt-checks">
                <Text size="xs" c="dimmed">
                  {t("riddle.length", { count: promptLength(prompt) })}
                </Text>
                {riddle.promptRules.map((rule) => {
                  const broken = problems.find((p) => p.kind === rule.kind);
                  return (
                    <Group key={riddleRuleText(rule, "en-US")} gap={6} wrap="nowrap" data-passed={!broken}>
                      {broken ? (
                        <IconX size={14} color="var(--mantine-color-red-6)" />
                      ) : (
                        <IconCheck size={14} color="var(--mantine-color-teal-6)" />
                      )}
                      <Text size="xs" c={broken ? "red" : undefined}>
                        {broken ? broken.message : riddleRuleText(rule, locale)}
                      </Text>
                    </Group>
                  );
                })}
              </Stack>
              <Button
                leftSection={<IconPlayerPlay size={16} />}
                onClick={submit}
                loading={running}
                disabled={!prompt.trim() || problems.length > 0}
                data-testid="riddle-submit"
              >
                {t("riddle.submit")}
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}

      {failure ? (
        <Alert color="red" data-testid="riddle-failure">
          {failure}
        </Alert>
      ) : null}

      {answer !== null ? (
        <Paper withBorder p="md" radius="md">
          <Text size="xs" c="dimmed" mb={4}>
            {t("riddle.answer")}
          </Text>
          <Text size="sm" className={classes.riddleAnswer} data-testid="riddle-answer">
            {answer || (running ? "…" : "")}
          </Text>
        </Paper>
      ) : null}

      {verdict ? <VerdictView verdict={verdict} /> : null}

      {riddle.state === "completed" ? (
        <Paper withBorder p="md" radius="md">
          <Group justify="space-between" gap="xs">
            {riddle.claimed ? (
              <Badge
                size="lg"
                color="teal"
                variant="light"
                leftSection={<IconCheck size={14} />}
                data-testid="riddle-claimed"
              >
                {t("riddle.rewardClaimed", { amount: reward })}
              </Badge>
            ) : (
              <Button
                color="grape"
                leftSection={<IconGift size={16} />}
                onClick={claim}
                loading={claiming}
                data-testid="riddle-claim"
              >
                {t("riddle.claim", { amount: reward })}
              </Button>
            )}
            {next ? (
              <Button variant="light" onClick={() => onNext(next.id)} data-testid="riddle-next">
                {t("riddle.next", { title: next.title })}
              </Button>
            ) : null}
          </Group>
          {claimFailure ? (
            <Text size="sm" c="red" mt="xs" data-testid="riddle-claim-failure">
              {claimFailure}
            </Text>
          ) : null}
        </Paper>
      ) : null}

      {attempts.data && attempts.data.items.length > 0 ? (
        <Paper withBorder p="md" radius="md">
          <Text size="sm" fw={500} mb="xs">
            {t("riddle.history", { count: attempts.data.items.length })}
          </Text>
          <Stack gap={6} data-testid="riddle-history">
            {attempts.data.items.slice(0, 10).map((a) => (
              <Group key={a.id} gap="xs" wrap="nowrap" align="flex-start">
                <Badge size="sm" color={a.passed ? "teal" : "red"} variant="light" style={{ flexShrink: 0 }}>
                  {t(a.passed ? "riddle.passed" : "riddle.failed")}
                </Badge>
                <Text size="sm" style={{ minWidth: 0, overflowWrap: "anywhere" }}>
                  {a.prompt}
                </Text>
                <Text size="xs" c="dimmed" style={{ flexShrink: 0, marginLeft: "auto" }}>
                  {new Date(a.createdAt).toLocaleString(locale, { dateStyle: "short", timeStyle: "short" })}
                </Text>
              </Group>
            ))}
          </Stack>
        </Paper>
      ) : null}
    </Stack>
  );
}

function VerdictView({ verdict }: { verdict: Verdict }) {
  const { t } = useTranslation("playground");
  const { attempt } = verdict;
  return (
    <Alert
      color={attempt.passed ? "teal" : "red"}
      icon={attempt.passed ? <IconCheck size={18} /> : <IconX size={18} />}
      title={attempt.passed ? t(verdict.solvedNow ? "riddle.solvedNow" : "riddle.solvedAgain") : t("riddle.notSolved")}
      data-testid="riddle-verdict"
      data-passed={attempt.passed}
    >
      <Stack gap={4}>
        {attempt.checks.map((c) => (
          <Group key={c.rule} gap={6} wrap="nowrap" align="flex-start" data-passed={c.passed}>
            {c.passed ? (
              <IconCheck size={14} style={{ flexShrink: 0, marginTop: 3 }} />
            ) : (
              <IconX size={14} style={{ flexShrink: 0, marginTop: 3 }} />
            )}
            <Text size="sm">
              {c.rule}
              {c.passed ? "" : ` ${c.reason}`}
            </Text>
          </Group>
        ))}
        {attempt.billed ? (
          <Text size="xs" c="dimmed">
            {t("riddle.billed")}
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}
