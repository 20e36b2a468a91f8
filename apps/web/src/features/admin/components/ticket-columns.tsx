import { Anchor, Button, Group, Menu, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import {
  type AdminFeedback,
  type AdminLead,
  SUPPORT_LABELS,
  TICKET_STATUSES,
  type TicketStatus,
} from "@moonport/contracts";
import { IconChevronDown } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import type { DataColumn } from "../../../components/console-kit/data-table.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { useTicketStatus } from "../api/admin.ts";
import { OrgLink, queueColumns } from "./queue-columns.tsx";

const STATUS_COLOR: Record<TicketStatus, string> = { new: "blue", in_progress: "yellow", resolved: "green" };

/** A lead's columns: contact, company, topic, need, status and Reply (by e-mail). */
export function useLeadColumns(onReply: (lead: AdminLead) => void): DataColumn<AdminLead>[] {
  const { t } = useTranslation("admin");
  const locale = useLocale();
  return [
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
    queueColumns.actions("reply", 100, (r) => <ReplyButton onClick={() => onReply(r)} />),
  ];
}

/** A feedback's columns: who, type, description, images, contact, status and Reply (when the contact is an e-mail). */
export function useFeedbackColumns(onReply: (feedback: AdminFeedback) => void): DataColumn<AdminFeedback>[] {
  const { t } = useTranslation("admin");
  const locale = useLocale();
  return [
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
    queueColumns.actions("reply", 100, (r) =>
      r.contact?.includes("@") ? <ReplyButton onClick={() => onReply(r)} /> : null,
    ),
  ];
}

function ReplyButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation("admin");
  return (
    <Button size="xs" variant="default" onClick={onClick} data-testid="ticket-reply">
      {t("queues.reply")}
    </Button>
  );
}

/** A ticket's status as a menu that moves it along. */
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
