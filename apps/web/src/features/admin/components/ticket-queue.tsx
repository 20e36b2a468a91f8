import { Badge, SegmentedControl, Text, Textarea } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { AdminReplyRequest, TICKET_STATUSES, type TicketStatus } from "@moonport/contracts";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DataTable, pagerOf } from "../../../components/console-kit/data-table.tsx";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { feedbackQuery, leadsQuery, useTicketReply } from "../api/admin.ts";
import { useFeedbackColumns, useLeadColumns } from "./ticket-columns.tsx";

/** Queues → Leads and Feedback: tickets filtered by status, moved along and answered by e-mail. */
export function TicketQueue({ kind }: { kind: "leads" | "feedback" }) {
  const { t } = useTranslation("admin");
  const [status, setStatus] = useState<TicketStatus | "all">("new");
  const [page, setPage] = useState(1);
  const filter = status === "all" ? undefined : status;
  const leads = useQuery({ ...leadsQuery(filter, page), enabled: kind === "leads" });
  const feedback = useQuery({ ...feedbackQuery(filter, page), enabled: kind === "feedback" });
  const [replyTo, setReplyTo] = useState<{ id: string; to: string } | null>(null);
  const leadColumns = useLeadColumns((r) => setReplyTo({ id: r.id, to: r.email }));
  const feedbackColumns = useFeedbackColumns((r) => setReplyTo({ id: r.id, to: r.contact! }));
  const filterControl = (
    <SegmentedControl
      mb="md"
      value={status}
      onChange={(v) => {
        setStatus(v as TicketStatus | "all");
        setPage(1);
      }}
      data={[
        ...TICKET_STATUSES.map((s) => ({ value: s, label: t(`statuses.${s}`) })),
        { value: "all", label: t("queues.all") },
      ]}
      data-testid="ticket-filter"
    />
  );
  return (
    <>
      {filterControl}
      {kind === "leads" ? (
        <DataTable
          columns={leadColumns}
          rows={leads.data?.items}
          query={leads}
          getRowId={(r) => r.id}
          rowTestId="lead-row"
          minWidth={1100}
          empty={<EmptyState title={t("queues.noLeads")} />}
          pagination={pagerOf(leads.data, page, setPage)}
        />
      ) : (
        <DataTable
          columns={feedbackColumns}
          rows={feedback.data?.items}
          query={feedback}
          getRowId={(r) => r.id}
          rowTestId="feedback-queue-row"
          minWidth={1100}
          empty={<EmptyState title={t("queues.noFeedback")} />}
          pagination={pagerOf(feedback.data, page, setPage)}
        />
      )}
      <ReplyDialog kind={kind} target={replyTo} onClose={() => setReplyTo(null)} />
    </>
  );
}

function ReplyDialog({
  kind,
  target,
  onClose,
}: {
  kind: "leads" | "feedback";
  target: { id: string; to: string } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation("admin");
  const reply = useTicketReply(kind);
  const { field, dialog } = useDialogForm(AdminReplyRequest, {
    opened: target !== null,
    onClose,
    defaultValues: { message: "" },
    submit: async (v) => {
      await reply.mutateAsync({ id: target!.id, message: v.message });
      notifications.show({ color: "teal", message: t("queues.replySent") });
    },
    failure: (reason) => t("queues.failed", { reason }),
  });
  return (
    <FormDialog
      {...dialog}
      size="lg"
      title={t("queues.replyTitle", { to: target?.to ?? "" })}
      submitLabel={t("queues.reply")}
    >
      <Badge variant="light" w="fit-content">
        {target?.to}
      </Badge>
      <Text size="sm" c="dimmed">
        {t("queues.replyHint")}
      </Text>
      <Textarea
        label={t("queues.replyMessage")}
        autosize
        minRows={5}
        {...field("message")}
        data-testid="reply-message"
      />
    </FormDialog>
  );
}
