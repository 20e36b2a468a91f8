import { Badge, Box, Group, Progress, SegmentedControl, Stack, Text, ThemeIcon, UnstyledButton } from "@mantine/core";
import { RIDDLE_DIFFICULTIES, type RiddleDifficulty, type RiddleView } from "@moonport/contracts";
import { IconCheck, IconCircle, IconFlame, IconLock } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CurrentOrg } from "../../../components/console-kit/current-org.ts";
import { money } from "../../../components/console-kit/money.ts";
import { LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { riddleBoardQuery } from "../api/riddles.ts";
import classes from "./playground.module.css";
import { RiddleWorkspace } from "./riddle-workspace.tsx";

/**
 * Riddle mode (§2): tracks by difficulty with progress, the riddle's card, a prompt editor whose rule checks run as
 * the player types, the streamed answer, the server's verdict with the reason for each failed rule, the reward
 * claim and the attempts history. Judging happens only on the server; the editor's checks mirror its prompt rules.
 */
export function RiddleMode({
  org,
  projectId,
  modeSwitch,
}: {
  org: CurrentOrg;
  projectId: string;
  modeSwitch: ReactNode;
}) {
  const { t } = useTranslation("playground");
  const board = useQuery(riddleBoardQuery(org.id));
  const [track, setTrack] = useState<RiddleDifficulty>("beginner");
  const [selected, setSelected] = useState<string | null>(null);

  const riddles = board.data?.riddles ?? [];
  const inTrack = riddles.filter((r) => r.difficulty === track);
  // Default: the first riddle of the track not yet completed (or its last one).
  useEffect(() => {
    if (!board.data) return;
    if (selected && board.data.riddles.some((r) => r.id === selected && r.difficulty === track)) return;
    const list = board.data.riddles.filter((r) => r.difficulty === track);
    setSelected((list.find((r) => r.state === "available") ?? list[list.length - 1])?.id ?? null);
  }, [board.data, track, selected]);
  const current = riddles.find((r) => r.id === selected);

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="xs" className={classes.toolbar}>
        {modeSwitch}
        {board.data ? (
          <Group gap="xs">
            <Badge
              size="lg"
              variant="light"
              color={board.data.streak.current > 0 ? "orange" : "gray"}
              leftSection={<IconFlame size={14} />}
              tt="none"
              data-testid="riddle-streak"
            >
              {t("riddle.streak", { count: board.data.streak.current, best: board.data.streak.best })}
            </Badge>
            <Badge size="lg" variant="light" color="blue" tt="none" data-testid="riddle-quota">
              {t("riddle.quota", { remaining: board.data.quota.remaining, free: board.data.quota.free })}
            </Badge>
          </Group>
        ) : null}
      </Group>
      {board.isPending ? (
        <LoadingBlock />
      ) : board.isError ? (
        <LoadError error={board.error} onRetry={() => board.refetch()} />
      ) : (
        <div className={classes.riddleLayout}>
          <Stack gap="sm">
            <SegmentedControl
              fullWidth
              size="xs"
              value={track}
              onChange={(v) => setTrack(v as RiddleDifficulty)}
              data={RIDDLE_DIFFICULTIES.map((d) => ({ value: d, label: t(`riddle.difficulty.${d}`) }))}
              aria-label={t("riddle.track")}
              data-testid="riddle-track"
            />
            {board.data.progress
              .filter((p) => p.difficulty === track)
              .map((p) => (
                <Box key={p.difficulty}>
                  <Group justify="space-between" mb={4}>
                    <Text size="sm" fw={500}>
                      {t("riddle.progress")}
                    </Text>
                    <Text size="sm" c="dimmed" data-testid="riddle-progress">
                      {p.completed} / {p.total}
                    </Text>
                  </Group>
                  <Progress
                    value={p.total ? (100 * p.completed) / p.total : 0}
                    size="sm"
                    aria-label={t("riddle.progress")}
                  />
                </Box>
              ))}
            <Stack gap={6} role="list" aria-label={t("riddle.list")}>
              {inTrack.map((r) => (
                <RiddleItem key={r.id} riddle={r} active={r.id === selected} onSelect={() => setSelected(r.id)} />
              ))}
            </Stack>
          </Stack>
          {current ? (
            <RiddleWorkspace
              key={current.id}
              org={org}
              projectId={projectId}
              riddle={current}
              next={inTrack.find((r) => r.position === current.position + 1)}
              onNext={(id) => setSelected(id)}
            />
          ) : null}
        </div>
      )}
    </Stack>
  );
}

function StateIcon({ state }: { state: RiddleView["state"] }) {
  if (state === "completed")
    return (
      <ThemeIcon size={22} radius="xl" color="teal" aria-hidden>
        <IconCheck size={14} />
      </ThemeIcon>
    );
  if (state === "locked")
    return (
      <ThemeIcon size={22} radius="xl" color="gray" variant="light" aria-hidden>
        <IconLock size={14} />
      </ThemeIcon>
    );
  return (
    <ThemeIcon size={22} radius="xl" color="blue" variant="light" aria-hidden>
      <IconCircle size={14} />
    </ThemeIcon>
  );
}

function RiddleItem({ riddle, active, onSelect }: { riddle: RiddleView; active: boolean; onSelect: () => void }) {
  const { t } = useTranslation("playground");
  const claimable = riddle.state === "completed" && !riddle.claimed;
  const reward = money(riddle.reward.amount, riddle.reward.currency as "CNY" | "USD");
  return (
    <UnstyledButton
      onClick={onSelect}
      className={classes.riddleItem}
      data-active={active || undefined}
      data-testid={`riddle-item-${riddle.id}`}
      data-state={riddle.state}
      role="listitem"
      aria-current={active || undefined}
    >
      <Group gap="sm" wrap="nowrap">
        <StateIcon state={riddle.state} />
        <Box style={{ minWidth: 0, flex: 1 }}>
          <Text size="sm" fw={500} truncate>
            {riddle.position}. {riddle.title}
          </Text>
          <Text size="xs" c="dimmed" lineClamp={2} data-testid="riddle-item-goal">
            {riddle.goal}
          </Text>
          <Text
            size="xs"
            c={claimable ? "grape" : "dimmed"}
            fw={claimable ? 600 : undefined}
            data-testid="riddle-item-state"
          >
            {t(`riddle.state.${riddle.state}`)}
            {riddle.state === "completed"
              ? ` · ${riddle.claimed ? t("riddle.claimed") : t("riddle.toClaim", { amount: reward })}`
              : ""}
          </Text>
        </Box>
      </Group>
    </UnstyledButton>
  );
}
