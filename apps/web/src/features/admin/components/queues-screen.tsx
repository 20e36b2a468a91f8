import { Anchor, Badge, Button, Group, Menu, SegmentedControl, Stack, Tabs, Text, Textarea } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import {
  type AdminFeedback,
  type AdminLead,
  AdminReplyRequest,
  type AdminVerification,
  type Currency,
  RejectVerificationRequest,
  SUPPORT_LABELS,
  TICKET_STATUSES,
  type TicketStatus,
} from "@moonport/contracts";
import { IconChevronDown } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { type DataColumn, DataTable } from "../../../components/console-kit/data-table.tsx";
import { ConfirmDialog, FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { money } from "../../../components/console-kit/money.ts";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { paths, tabFrom } from "../../../lib/paths.ts";
import {
  feedbackQuery,
  leadsQuery,
  transfersQuery,
  useConfirmTransfer,
  useDecideVerification,
  useTicketReply,
  useTicketStatus,
  verificationsQuery,
} from "../api/admin.ts";
import { InvoicesQueue } from "./invoices-queue.tsx";
import { OrgLink, queueColumns } from "./queue-columns.tsx";
import { RefundsQueue } from "./refunds-queue.tsx";

const TABS = ["verifications", "transfers", "invoices", "refunds", "leads", "feedback"] as const;
type Tab = (typeof TABS)[number];
const STATUS_COLOR: Record<TicketStatus, string> = { new: "blue", in_progress: "yellow", resolved: "green" };

/** Back office → Queues: transfers to confirm, sales leads and feedback to answer and move along. */
export function QueuesScreen({ tab }: { tab?: string }) {
  const { t } = useTranslation("admin");
  const navigate = useNavigate();
  const current = tabFrom(TABS, tab);
  return (
    <>
      <PageHeader title={t("queues.title")} description={t("queues.description")} />
      <Tabs value={current} onChange={(v) => v && navigate(paths.adminQueues(v as Tab))} keepMounted={false}>
        <Tabs.List mb="md">
          {TABS.map((k) => (
            <Tabs.Tab key={k} value={k} data-testid={`queue-tab-${k}`}>
              {t(`queues.${k}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="verifications">
          <VerificationsQueue />
        </Tabs.Panel>
        <Tabs.Panel value="transfers">
          <TransfersQueue />
        </Tabs.Panel>
        <Tabs.Panel value="invoices">
          <InvoicesQueue />
        </Tabs.Panel>
        <Tabs.Panel value="refunds">
          <RefundsQueue />
        </Tabs.Panel>
        <Tabs.Panel value="leads">
          <TicketQueue kind="leads" />
        </Tabs.Panel>
        <Tabs.Panel value="feedback">
          <TicketQueue kind="feedback" />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

function VerificationsQueue() {
  const { t } = useTranslation("admin");
  const list = useQuery(verificationsQuery());
  const decide = useDecideVerification();
  const [approving, setApproving] = useState<AdminVerification | null>(null);
  const [rejecting, setRejecting] = useState<AdminVerification | null>(null);
  const columns: DataColumn<AdminVerification>[] = [
    queueColumns.created(t("queues.created")),
    queueColumns.org(t("queues.organization")),
    { id: "kind", header: t("queues.kind"), cell: (r) => t(`queues.kinds.${r.kind}`) },
    {
      id: "details",
      header: t("queues.details"),
      cell: (r) => (
        <Stack gap={0}>
          {Object.entries(r.details).map(([k, v]) => (
            <Text key={k} size="xs">
              <Text span c="dimmed" size="xs">
                {k}:
              </Text>{" "}
              {v}
            </Text>
          ))}
        </Stack>
      ),
    },
    {
      id: "actions",
      header: "",
      align: "right",
      width: 200,
      cell: (r) => (
        <Group gap={6} justify="flex-end" wrap="nowrap">
          <Button size="xs" onClick={() => setApproving(r)} data-testid="verification-approve">
            {t("queues.approve")}
          </Button>
          <Button
            size="xs"
            color="red"
            variant="light"
            onClick={() => setRejecting(r)}
            data-testid="verification-reject"
          >
            {t("queues.reject")}
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <>
      <DataTable
        columns={columns}
        rows={list.data?.items}
        query={list}
        getRowId={(r) => r.id}
        rowTestId="verification-row"
        minWidth={900}
        empty={<EmptyState title={t("queues.noVerifications")} />}
      />
      <ConfirmDialog
        opened={approving !== null}
        onClose={() => setApproving(null)}
        title={t("queues.approve")}
        confirmLabel={t("queues.approve")}
        danger={false}
        pending={decide.isPending}
        error={decide.error ? t("queues.failed", { reason: decide.error.message }) : undefined}
        onConfirm={() =>
          approving && decide.mutate({ id: approving.id, decision: "approve" }, { onSuccess: () => setApproving(null) })
        }
      >
        <Text size="sm">{t("queues.approveText", { name: approving?.orgName })}</Text>
      </ConfirmDialog>
      <RejectDialog target={rejecting} onClose={() => setRejecting(null)} />
    </>
  );
}

function RejectDialog({ target, onClose }: { target: AdminVerification | null; onClose: () => void }) {
  const { t } = useTranslation("admin");
  const decide = useDecideVerification();
  const { field, dialog } = useDialogForm(RejectVerificationRequest, {
    opened: target !== null,
    onClose,
    defaultValues: { reason: "" },
    submit: (v) => decide.mutateAsync({ id: target!.id, decision: "reject", reason: v.reason }),
    failure: (reason) => t("queues.failed", { reason }),
  });
  return (
    <FormDialog {...dialog} title={t("queues.reject")} submitLabel={t("queues.reject")} danger>
      <Text size="sm">{t("queues.rejectText", { name: target?.orgName ?? "" })}</Text>
      <Textarea
        label={t("queues.rejectReason")}
        autosize
        minRows={2}
        {...field("reason")}
        data-testid="reject-reason"
      />
    </FormDialog>
  );
}

function TransfersQueue() {
  const { t } = useTranslation("admin");
  const [page, setPage] = useState(1);
  const list = useQuery(transfersQuery(page));
  const confirmTransfer = useConfirmTransfer();
  const [target, setTarget] = useState<{ id: string; amount: string; reference: string } | null>(null);
  type Row = NonNullable<typeof list.data>["items"][number];
  const columns: DataColumn<Row>[] = [
    queueColumns.org(t("queues.organization")),
    { id: "amount", header: t("queues.amount"), align: "right", cell: (r) => money(r.amount, r.currency as Currency) },
    { id: "reference", header: t("queues.reference"), cell: (r) => <Text fw={600}>{r.reference ?? "—"}</Text> },
    queueColumns.created(t("queues.created")),
    {
      id: "actions",
      header: "",
      align: "right",
      width: 160,
      cell: (r) => (
        <Button
          size="xs"
          onClick={() =>
            setTarget({ id: r.id, amount: money(r.amount, r.currency as Currency), reference: r.reference ?? r.id })
          }
          data-testid="transfer-confirm"
        >
          {t("queues.confirm")}
        </Button>
      ),
    },
  ];
  return (
    <>
      <DataTable
        columns={columns}
        rows={list.data?.items}
        query={list}
        getRowId={(r) => r.id}
        rowTestId="transfer-row"
        minWidth={720}
        empty={<EmptyState title={t("queues.noTransfers")} />}
        pagination={
          list.data ? { page, pageSize: list.data.pageSize, total: list.data.total, onChange: setPage } : undefined
        }
      />
      <ConfirmDialog
        opened={target !== null}
        onClose={() => setTarget(null)}
        title={t("queues.confirm")}
        confirmLabel={t("queues.confirm")}
        danger={false}
        pending={confirmTransfer.isPending}
        error={confirmTransfer.error ? t("queues.failed", { reason: confirmTransfer.error.message }) : undefined}
        onConfirm={() =>
          target &&
          confirmTransfer.mutate(target.id, {
            onSuccess: () => {
              setTarget(null);
              notifications.show({ color: "teal", message: t("queues.confirmed") });
            },
          })
        }
      >
        <Text size="sm">{t("queues.confirmText", { amount: target?.amount, reference: target?.reference })}</Text>
      </ConfirmDialog>
    </>
  );
}

function StatusMenu({ kind, id, status }: { kind: "leads" | "feedback"; id: string; status: TicketStatus }) {
  const { t } = useTranslation("admin");
  const set = useTicketStatus(kind);
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <Button
          size="xs"
          variant="light"
          color={STATUS_COLOR[status]}
          rightSection={<IconChevronDown size={14} />}
          loading={set.isPending}
          data-testid="ticket-status"
          data-status={status}
        >
          {t(`statuses.${status}`)}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t("queues.setStatus")}</Menu.Label>
        {TICKET_STATUSES.map((s) => (
          <Menu.Item
            key={s}
            disabled={s === status}
            onClick={() =>
              set.mutate(
                { id, status: s },
                {
                  onError: (e) =>
                    notifications.show({ color: "red", message: t("queues.failed", { reason: e.message }) }),
                },
              )
            }
            data-testid={`ticket-status-${s}`}
          >
            {t(`statuses.${s}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

function TicketQueue({ kind }: { kind: "leads" | "feedback" }) {
  const { t } = useTranslation("admin");
  const locale = useLocale();
  const [status, setStatus] = useState<TicketStatus | "all">("new");
  const [page, setPage] = useState(1);
  const filter = status === "all" ? undefined : status;
  const leads = useQuery({ ...leadsQuery(filter, page), enabled: kind === "leads" });
  const feedback = useQuery({ ...feedbackQuery(filter, page), enabled: kind === "feedback" });
  const [replyTo, setReplyTo] = useState<{ id: string; to: string } | null>(null);
  const leadColumns: DataColumn<AdminLead>[] = [
    queueColumns.created(t("queues.created")),
    {
      id: "contact",
      header: t("queues.contact"),
      cell: (r) => (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {r.name}
          </Text>
          <Text size="xs" c="dimmed">
            {r.email} · {r.phone}
          </Text>
        </Stack>
      ),
    },
    {
      id: "company",
      header: t("queues.company"),
      cell: (r) => (
        <Stack gap={0}>
          <Text size="sm">{r.company}</Text>
          <Text size="xs" c="dimmed">
            {(SUPPORT_LABELS.industry as Record<string, Record<string, string>>)[r.industry]?.[locale] ?? r.industry}
          </Text>
        </Stack>
      ),
    },
    {
      id: "topic",
      header: t("queues.topic"),
      cell: (r) => (SUPPORT_LABELS.topic as Record<string, Record<string, string>>)[r.topic]?.[locale] ?? r.topic,
    },
    {
      id: "need",
      header: t("queues.need"),
      cell: (r) => (
        <Text size="sm" lineClamp={3} maw={340}>
          {r.problem}
        </Text>
      ),
    },
    { id: "status", header: t("queues.status"), cell: (r) => <StatusMenu kind="leads" id={r.id} status={r.status} /> },
    {
      id: "reply",
      header: "",
      align: "right",
      width: 100,
      cell: (r) => (
        <Button
          size="xs"
          variant="default"
          onClick={() => setReplyTo({ id: r.id, to: r.email })}
          data-testid="ticket-reply"
        >
          {t("queues.reply")}
        </Button>
      ),
    },
  ];
  const feedbackColumns: DataColumn<AdminFeedback>[] = [
    queueColumns.created(t("queues.created")),
    {
      id: "from",
      header: t("queues.from"),
      cell: (r) => (
        <Stack gap={0}>
          <Text size="sm">{r.submittedBy}</Text>
          <OrgLink orgId={r.orgId} orgName={r.orgName} size="xs" />
        </Stack>
      ),
    },
    {
      id: "type",
      header: t("queues.type"),
      cell: (r) => (
        <Stack gap={0}>
          <Text size="sm">{SUPPORT_LABELS.feedbackType[r.type][locale]}</Text>
          {r.model ? (
            <Text size="xs" c="dimmed">
              {r.model}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      id: "description",
      header: t("queues.description_"),
      cell: (r) => (
        <Text size="sm" lineClamp={3} maw={340}>
          {r.description}
        </Text>
      ),
    },
    {
      id: "images",
      header: t("queues.images"),
      cell: (r) =>
        r.imageUrls.length === 0 ? (
          "—"
        ) : (
          <Group gap={4} wrap="nowrap">
            {r.imageUrls.map((u, i) => (
              <Anchor key={u} href={u} target="_blank" rel="noopener noreferrer" size="sm" data-testid="feedback-image">
                #{i + 1}
              </Anchor>
            ))}
          </Group>
        ),
    },
    { id: "contact", header: t("queues.contact"), cell: (r) => <Text size="sm">{r.contact ?? "—"}</Text> },
    {
      id: "status",
      header: t("queues.status"),
      cell: (r) => <StatusMenu kind="feedback" id={r.id} status={r.status} />,
    },
    {
      id: "reply",
      header: "",
      align: "right",
      width: 100,
      cell: (r) =>
        r.contact?.includes("@") ? (
          <Button
            size="xs"
            variant="default"
            onClick={() => setReplyTo({ id: r.id, to: r.contact! })}
            data-testid="ticket-reply"
          >
            {t("queues.reply")}
          </Button>
        ) : null,
    },
  ];
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
          pagination={
            leads.data ? { page, pageSize: leads.data.pageSize, total: leads.data.total, onChange: setPage } : undefined
          }
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
          pagination={
            feedback.data
              ? { page, pageSize: feedback.data.pageSize, total: feedback.data.total, onChange: setPage }
              : undefined
          }
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
