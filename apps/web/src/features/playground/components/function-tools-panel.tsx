import { Badge, Button, Code, Group, Paper, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { type FunctionTool, FunctionToolInput, type ToolRunResult } from "@moonport/contracts";
import { IconPlayerPlay, IconPlus } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog, FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { useZodForm } from "../../../components/console-kit/use-zod-form.ts";
import { ApiError } from "../../../lib/api.ts";
import { testRunFunctionTool, useDeleteFunctionTool, useSaveFunctionTool } from "../api/tools.ts";
import classes from "./playground.module.css";
import { RowIconActions } from "./row-icon-actions.tsx";

const STARTER = {
  name: "",
  description: "",
  parameters: JSON.stringify(
    { type: "object", properties: { city: { type: "string", description: "City name" } }, required: ["city"] },
    null,
    2,
  ),
  exampleInput: JSON.stringify({ city: "Beijing" }, null, 2),
  code: "function handler(args) {\n  return { city: args.city, length: args.city.length };\n}",
};

/** The caller's custom function tools in this project: list, create, edit, delete, test-run. */
export function FunctionToolsPanel({
  orgId,
  projectId,
  tools,
}: {
  orgId: string;
  projectId: string;
  tools: FunctionTool[];
}) {
  const { t } = useTranslation("playground");
  const [editing, setEditing] = useState<FunctionTool | "new" | null>(null);
  const [deleting, setDeleting] = useState<FunctionTool | null>(null);
  const del = useDeleteFunctionTool(orgId, projectId);
  const reason = (e: unknown) => (e instanceof ApiError && e.code !== "network" ? e.message : t("errors.network"));
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" c="dimmed" style={{ flex: 1, minWidth: 200 }}>
          {t("functions.intro")}
        </Text>
        <Button
          size="xs"
          leftSection={<IconPlus size={14} />}
          onClick={() => setEditing("new")}
          data-testid="function-new"
        >
          {t("functions.new")}
        </Button>
      </Group>
      {tools.length === 0 ? (
        <Text size="sm" c="dimmed" py="md" ta="center">
          {t("functions.empty")}
        </Text>
      ) : (
        tools.map((tool) => (
          <Paper key={tool.id} withBorder radius="md" p="sm" data-testid="function-row">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text size="sm" fw={600} ff="monospace" className={classes.pre}>
                  {tool.name}
                </Text>
                {tool.description ? (
                  <Text size="xs" c="dimmed" className={classes.clamp2}>
                    {tool.description}
                  </Text>
                ) : null}
              </Stack>
              <RowIconActions
                editLabel={t("functions.edit")}
                deleteLabel={t("functions.delete")}
                onEdit={() => setEditing(tool)}
                onDelete={() => setDeleting(tool)}
              />
            </Group>
          </Paper>
        ))
      )}
      {editing ? (
        <FunctionToolEditor
          orgId={orgId}
          projectId={projectId}
          tool={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDialog
        opened={!!deleting}
        onClose={() => {
          del.reset();
          setDeleting(null);
        }}
        title={t("functions.deleteTitle")}
        confirmLabel={t("functions.delete")}
        pending={del.isPending}
        error={del.error ? t("functions.deleteFailed", { reason: reason(del.error) }) : undefined}
        onConfirm={() => deleting && del.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
      >
        <Text size="sm">{t("functions.deleteText", { name: deleting?.name ?? "" })}</Text>
      </ConfirmDialog>
    </Stack>
  );
}

/** Create or edit one tool; Test run runs the text as it stands (saved or not) with the example input. */
function FunctionToolEditor({
  orgId,
  projectId,
  tool,
  onClose,
}: {
  orgId: string;
  projectId: string;
  tool: FunctionTool | null;
  onClose: () => void;
}) {
  const { t } = useTranslation("playground");
  const save = useSaveFunctionTool(orgId, projectId);
  const [result, setResult] = useState<ToolRunResult | null>(null);
  const { form, field, onSubmit, formError } = useZodForm(FunctionToolInput, {
    defaultValues: tool
      ? {
          name: tool.name,
          description: tool.description,
          parameters: tool.parameters,
          exampleInput: tool.exampleInput,
          code: tool.code,
        }
      : STARTER,
  });
  const submit = onSubmit(
    async (values) => {
      await save.mutateAsync({ id: tool?.id, body: values });
      onClose();
    },
    (reason) => t("functions.saveFailed", { reason }),
  );
  const testRun = onSubmit(
    async (values) => {
      setResult(null);
      setResult(await testRunFunctionTool(orgId, projectId, values));
    },
    (reason) => t("functions.testFailed", { reason }),
  );
  /** A required field of JSON or code: monospace, without spell checking. */
  const codeField = (name: "parameters" | "exampleInput" | "code", minRows: number, maxRows: number) => (
    <Textarea
      label={t(`functions.fields.${name}`)}
      description={t(`functions.hints.${name}`)}
      withAsterisk
      autosize
      minRows={minRows}
      maxRows={maxRows}
      classNames={{ input: classes.mono }}
      spellCheck={false}
      {...field(name)}
    />
  );
  return (
    <FormDialog
      opened
      onClose={onClose}
      title={tool ? t("functions.editTitle") : t("functions.newTitle")}
      size="xl"
      onSubmit={submit}
      submitting={form.formState.isSubmitting}
      error={formError}
      formTestId="function-editor"
      submitTestId="function-save"
      extraAction={
        <Button
          variant="light"
          leftSection={<IconPlayerPlay size={14} />}
          onClick={() => void testRun()}
          data-testid="function-test-run"
        >
          {t("functions.testRun")}
        </Button>
      }
    >
      <TextInput
        label={t("functions.fields.name")}
        description={t("functions.hints.name")}
        withAsterisk
        {...field("name")}
      />
      <Textarea label={t("functions.fields.description")} autosize minRows={1} maxRows={4} {...field("description")} />
      {codeField("parameters", 4, 12)}
      {codeField("exampleInput", 2, 8)}
      {codeField("code", 5, 16)}
      {result ? (
        <Paper withBorder radius="sm" p="xs" data-testid="test-run-result" data-state={result.state}>
          <Stack gap={4}>
            <Group gap={6}>
              <Badge size="sm" variant="light" color={result.state === "success" ? "teal" : "red"}>
                {t(`tools.states.${result.state}`)}
              </Badge>
              <Text size="xs" c="dimmed">
                {t("tools.call.duration", { ms: result.durationMs })}
              </Text>
            </Group>
            <Code block className={classes.codeBlock} data-testid="test-run-output">
              {result.output}
            </Code>
          </Stack>
        </Paper>
      ) : null}
    </FormDialog>
  );
}
