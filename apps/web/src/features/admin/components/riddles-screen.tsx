import { ActionIcon, Badge, Button, Group, SegmentedControl, Text, Textarea, Tooltip } from "@mantine/core";
import { type AdminRiddleRow, RIDDLE_DIFFICULTIES } from "@moonport/contracts";
import { IconArrowDown, IconArrowUp, IconPencil, IconPlus } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type DataColumn, DataTable } from "../../../components/console-kit/data-table.tsx";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { ApiError } from "../../../lib/api.ts";
import { fetchRiddleDefinition, riddlesQuery, useRiddleChange } from "../api/admin.ts";

type Difficulty = (typeof RIDDLE_DIFFICULTIES)[number];
type Editing = { mode: "add" | "edit"; id?: string; json: string } | null;

/**
 * Back office → Riddles: each track in order; move up and down, retire and restore, and edit or add a riddle as
 * its JSON definition (the shape the CLI's `riddles show/add/edit` uses), checked by the server as a whole.
 */
export function RiddlesScreen() {
  const { t } = useTranslation("admin");
  const locale = useLocale();
  const [difficulty, setDifficulty] = useState<Difficulty>("beginner");
  const q = useQuery(riddlesQuery());
  const change = useRiddleChange();
  const [editing, setEditing] = useState<Editing>(null);
  const [error, setError] = useState<string>();
  const rows = q.data?.items.filter((r) => r.difficulty === difficulty);
  const active = rows?.filter((r) => !r.retired) ?? [];
  const run = (v: Parameters<typeof change.mutate>[0]) =>
    change.mutate(v, { onError: (e) => setError(t("riddles.failed", { reason: e.message })) });
  const open = async (mode: "add" | "edit", id: string) => {
    setError(undefined);
    const def = await fetchRiddleDefinition(id);
    const json = mode === "add" ? { ...def, id: `${id}-copy` } : def;
    setEditing({ mode, id: mode === "edit" ? id : undefined, json: JSON.stringify(json, null, 2) });
  };
  const columns: DataColumn<AdminRiddleRow>[] = [
    { id: "position", header: "#", width: 48, cell: (r) => (r.retired ? "—" : r.position) },
    {
      id: "title",
      header: t("riddles.title_"),
      cell: (r) => (
        <div>
          <Text size="sm" fw={600}>
            {r.title[locale]}
          </Text>
          <Text size="xs" c="dimmed">
            {r.id}
          </Text>
        </div>
      ),
    },
    { id: "model", header: t("riddles.model"), cell: (r) => <Text size="sm">{r.model}</Text> },
    { id: "reward", header: t("riddles.reward"), cell: (r) => `¥${r.reward.CNY} / $${r.reward.USD}` },
    { id: "solves", header: t("riddles.solves"), align: "right", cell: (r) => `${r.solves} / ${r.attempts}` },
    {
      id: "status",
      header: t("riddles.status"),
      cell: (r) => (
        <Badge variant="light" color={r.retired ? "gray" : "green"} data-testid="riddle-status">
          {r.retired ? t("riddles.retired") : t("riddles.active")}
        </Badge>
      ),
    },
    {
      id: "actions",
      header: "",
      align: "right",
      width: 220,
      cell: (r) => {
        const i = active.findIndex((a) => a.id === r.id);
        return (
          <Group gap={4} justify="flex-end" wrap="nowrap">
            {r.retired ? null : (
              <>
                <Tooltip label={t("riddles.up")}>
                  <ActionIcon
                    variant="subtle"
                    aria-label={t("riddles.up")}
                    disabled={i <= 0}
                    onClick={() => run({ kind: "move", id: r.id, position: i })}
                    data-testid="riddle-up"
                  >
                    <IconArrowUp size={16} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t("riddles.down")}>
                  <ActionIcon
                    variant="subtle"
                    aria-label={t("riddles.down")}
                    disabled={i === active.length - 1}
                    onClick={() => run({ kind: "move", id: r.id, position: i + 2 })}
                    data-testid="riddle-down"
                  >
                    <IconArrowDown size={16} />
                  </ActionIcon>
                </Tooltip>
              </>
            )}
            <Tooltip label={t("riddles.edit")}>
              <ActionIcon
                variant="subtle"
                aria-label={t("riddles.edit")}
                onClick={() => open("edit", r.id)}
                data-testid="riddle-edit"
              >
                <IconPencil size={16} />
              </ActionIcon>
            </Tooltip>
            <Button
              size="xs"
              variant="light"
              color={r.retired ? "teal" : "red"}
              onClick={() => run({ kind: r.retired ? "restore" : "retire", id: r.id })}
              data-testid={r.retired ? "riddle-restore" : "riddle-retire"}
            >
              {r.retired ? t("riddles.restore") : t("riddles.retire")}
            </Button>
          </Group>
        );
      },
    },
  ];
  const submit = async (e?: React.FormEvent) => {
    e?.preventDefault();
    if (!editing) return;
    setError(undefined);
    let definition: Record<string, unknown>;
    try {
      definition = JSON.parse(editing.json) as Record<string, unknown>;
    } catch (err) {
      setError(t("riddles.badJson", { reason: (err as Error).message }));
      return;
    }
    try {
      if (editing.mode === "add") await change.mutateAsync({ kind: "add", definition });
      else await change.mutateAsync({ kind: "edit", id: editing.id!, definition });
      setEditing(null);
    } catch (err) {
      const detail = err instanceof ApiError ? (err.details[0]?.message ?? err.message) : String(err);
      setError(t("riddles.failed", { reason: detail }));
    }
  };
  return (
    <>
      <PageHeader
        title={t("riddles.heading")}
        description={t("riddles.description")}
        actions={
          <Button
            leftSection={<IconPlus size={16} />}
            disabled={!rows?.length}
            onClick={() => rows?.[0] && open("add", rows[0].id)}
            data-testid="riddle-add"
          >
            {t("riddles.add")}
          </Button>
        }
      />
      <SegmentedControl
        mb="md"
        value={difficulty}
        onChange={(v) => setDifficulty(v as Difficulty)}
        data={RIDDLE_DIFFICULTIES.map((d) => ({ value: d, label: t(`riddles.difficulties.${d}`) }))}
        data-testid="riddle-track"
      />
      {error && !editing ? (
        <Text c="red" size="sm" mb="sm" data-testid="riddle-error">
          {error}
        </Text>
      ) : null}
      <DataTable
        columns={columns}
        rows={rows}
        query={q}
        getRowId={(r) => r.id}
        rowTestId="riddle-row"
        minWidth={900}
        empty={<EmptyState title={t("riddles.empty")} />}
      />
      <FormDialog
        opened={editing !== null}
        onClose={() => setEditing(null)}
        onSubmit={submit}
        submitting={change.isPending}
        error={error}
        size="xl"
        title={editing?.mode === "add" ? t("riddles.add") : t("riddles.editTitle", { id: editing?.id })}
      >
        <Text size="sm" c="dimmed">
          {t("riddles.jsonHint")}
        </Text>
        <Textarea
          value={editing?.json ?? ""}
          onChange={(e) => {
            const json = e.currentTarget.value;
            setEditing((s) => (s ? { ...s, json } : s));
          }}
          autosize
          minRows={14}
          maxRows={28}
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)", fontSize: 12 } }}
          data-testid="riddle-json"
        />
      </FormDialog>
    </>
  );
}
