import {
  Alert,
  Badge,
  Button,
  Card,
  FileInput,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from "@mantine/core";
import {
  FEEDBACK_TYPES,
  FeedbackFields,
  type FeedbackItem,
  MODELS,
  SUPPORT_LABELS,
  SUPPORT_LIMITS,
  type TicketStatus,
  vmsg,
} from "@moonport/contracts";
import { IconMessageReport, IconPhoto } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { DateTimeCell, TextCell } from "../../../components/console-kit/cells.tsx";
import { useConsoleUser } from "../../../components/console-kit/console-user.ts";
import { useCurrentOrg } from "../../../components/console-kit/current-org.ts";
import { type DataColumn, DataTable, pagerOf } from "../../../components/console-kit/data-table.tsx";
import { withFetchFailure } from "../../../components/console-kit/failure.ts";
import { FormSelect } from "../../../components/console-kit/form-select.tsx";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { useZodForm } from "../../../components/console-kit/use-zod-form.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { useFieldMessage } from "../../../lib/forms.ts";
import { feedbackQuery, useSubmitFeedback } from "../api/feedback.ts";

const STATUS_COLOR: Record<TicketStatus, string> = { new: "blue", in_progress: "yellow", resolved: "green" };
const IMAGE_MB = SUPPORT_LIMITS.feedbackImageBytes / 1024 / 1024;

/** What the server will refuse about the chosen images, checked before sending (the server checks again). */
function imagesProblem(files: File[]): string | undefined {
  if (files.length > SUPPORT_LIMITS.feedbackImages) return vmsg("images_count", { max: SUPPORT_LIMITS.feedbackImages });
  if (files.some((f) => !(SUPPORT_LIMITS.feedbackImageTypes as readonly string[]).includes(f.type))) {
    return vmsg("image_type");
  }
  if (files.some((f) => f.size > SUPPORT_LIMITS.feedbackImageBytes))
    return vmsg("image_too_large", { max: `${IMAGE_MB} MB` });
  return undefined;
}

/** Console → Feedback: the form (organization, type, model, description, contact, images) and what was sent. */
export function FeedbackScreen() {
  const { t } = useTranslation("support");
  const org = useCurrentOrg();
  const [orgId, setOrgId] = useState<string>();
  const target = orgId ?? org?.id;
  return (
    <>
      <PageHeader title={t("feedback.title")} description={t("feedback.intro")} />
      {target ? (
        <Stack gap="xl">
          <FeedbackForm orgId={target} onOrgChange={setOrgId} />
          <FeedbackHistory key={target} orgId={target} />
        </Stack>
      ) : (
        <EmptyState title={t("feedback.empty")} />
      )}
    </>
  );
}

function FeedbackForm({ orgId, onOrgChange }: { orgId: string; onOrgChange: (id: string) => void }) {
  const { t } = useTranslation("support");
  const locale = useLocale();
  const me = useConsoleUser();
  const fieldMessage = useFieldMessage();
  const submitFeedback = useSubmitFeedback(orgId);
  const [images, setImages] = useState<File[]>([]);
  const [imagesError, setImagesError] = useState<string>();
  const [sent, setSent] = useState(false);
  // Linked from the docs' not-found and error pages with the page's address: start the description with it.
  const [params] = useSearchParams();
  const from = params.get("from");
  const { form, field, error, onSubmit, formError } = useZodForm(FeedbackFields, {
    defaultValues: {
      description: from ? `${t("feedback.fromPage")} ${from.slice(0, 500)}\n\n` : "",
      contact: "",
      type: from ? "platform_feature" : undefined,
    },
  });
  const submit = onSubmit(
    async (values) => {
      setSent(false);
      const problem = imagesProblem(images);
      if (problem) {
        setImagesError(fieldMessage(problem));
        return;
      }
      await submitFeedback.mutateAsync({ ...values, images });
      form.reset({ description: "", contact: "", type: undefined, model: undefined });
      setImages([]);
      setSent(true);
    },
    (reason) => t("feedback.failed", { reason }),
  );
  return (
    <Card withBorder padding="lg" component="form" onSubmit={submit} noValidate maw={760}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label={t("feedback.organization")}
            data={me.organizations.map((o) => ({ value: o.id, label: o.name }))}
            value={orgId}
            onChange={(v) => v && onOrgChange(v)}
            allowDeselect={false}
            withAsterisk
            data-testid="feedback-org"
          />
          <FormSelect
            control={form.control}
            name="type"
            label={t("feedback.type")}
            placeholder={t("contact.fields.choose")}
            data={FEEDBACK_TYPES.map((v) => ({ value: v, label: SUPPORT_LABELS.feedbackType[v][locale] }))}
            error={error("type")}
            allowDeselect={false}
            withAsterisk
            data-testid="feedback-type"
          />
        </SimpleGrid>
        <FormSelect
          control={form.control}
          name="model"
          label={t("feedback.model")}
          placeholder={t("feedback.modelPlaceholder")}
          data={MODELS.map((m) => m.id)}
          error={error("model")}
          searchable
          clearable
          data-testid="feedback-model"
        />
        <Textarea
          label={t("feedback.description")}
          placeholder={t("feedback.descriptionPlaceholder")}
          autosize
          minRows={4}
          withAsterisk
          {...field("description")}
          data-testid="feedback-description"
        />
        <TextInput
          label={t("feedback.contact")}
          placeholder={t("feedback.contactPlaceholder")}
          {...field("contact")}
          data-testid="feedback-contact"
        />
        <FileInput
          label={t("feedback.images")}
          description={t("feedback.imagesHint", { max: SUPPORT_LIMITS.feedbackImages, size: `${IMAGE_MB} MB` })}
          placeholder={t("feedback.imagesPlaceholder")}
          leftSection={<IconPhoto size={16} />}
          accept={SUPPORT_LIMITS.feedbackImageTypes.join(",")}
          multiple
          clearable
          value={images}
          onChange={(files) => {
            setImages(files);
            setImagesError(fieldMessage(imagesProblem(files)));
          }}
          error={imagesError}
          data-testid="feedback-images"
        />
        {formError ? (
          <Alert color="red" variant="light" data-testid="feedback-error">
            {formError}
          </Alert>
        ) : null}
        {sent ? (
          <Alert color="teal" variant="light" data-testid="feedback-sent">
            {t("feedback.sent")}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button
            type="submit"
            leftSection={<IconMessageReport size={16} />}
            loading={form.formState.isSubmitting}
            data-testid="feedback-submit"
          >
            {t("feedback.submit")}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function FeedbackHistory({ orgId }: { orgId: string }) {
  const { t } = useTranslation("support");
  const locale = useLocale();
  const org = useCurrentOrg();
  const [page, setPage] = useState(1);
  const q = useQuery(feedbackQuery(orgId, page));
  const admin = org?.id === orgId ? org.role === "admin" : false;
  const columns: DataColumn<FeedbackItem>[] = [
    { id: "createdAt", header: t("feedback.columns.createdAt"), cell: (r) => <DateTimeCell iso={r.createdAt} /> },
    {
      id: "type",
      header: t("feedback.columns.type"),
      cell: (r) => <Text size="sm">{SUPPORT_LABELS.feedbackType[r.type][locale]}</Text>,
    },
    {
      id: "description",
      header: t("feedback.columns.description"),
      cell: (r) => (
        <Text size="sm" lineClamp={2} maw={360}>
          {r.description}
        </Text>
      ),
    },
    { id: "model", header: t("feedback.columns.model"), cell: (r) => <TextCell>{r.model}</TextCell> },
    {
      id: "images",
      header: t("feedback.columns.images"),
      align: "right",
      cell: (r) => <Text size="sm">{r.images}</Text>,
    },
    ...(admin
      ? [
          {
            id: "submittedBy",
            header: t("feedback.columns.submittedBy"),
            cell: (r: FeedbackItem) => <TextCell>{r.submittedBy}</TextCell>,
          },
        ]
      : []),
    {
      id: "status",
      header: t("feedback.columns.status"),
      cell: (r) => (
        <Badge variant="light" color={STATUS_COLOR[r.status]} data-status={r.status} data-testid="feedback-status">
          {SUPPORT_LABELS.status[r.status][locale]}
        </Badge>
      ),
    },
  ];
  return (
    <Stack gap="xs">
      <Text fw={600}>{t("feedback.historyTitle")}</Text>
      <Text size="sm" c="dimmed">
        {t(admin ? "feedback.historyAll" : "feedback.historyMine")}
      </Text>
      <DataTable
        columns={columns}
        rows={q.data?.items}
        query={withFetchFailure(q, (reason) => t("feedback.fetchFailed", { reason: reason ?? "" }))}
        getRowId={(r) => r.id}
        rowTestId="feedback-row"
        minWidth={720}
        empty={<EmptyState icon={IconMessageReport} title={t("feedback.empty")} text={t("feedback.emptyHint")} />}
        pagination={pagerOf(q.data, page, setPage)}
      />
    </Stack>
  );
}
