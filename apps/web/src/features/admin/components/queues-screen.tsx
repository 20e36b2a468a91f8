import { Tabs } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { PageHeader } from "../../../components/page-header.tsx";
import { paths, tabFrom } from "../../../lib/paths.ts";
import { InvoicesQueue } from "./invoices-queue.tsx";
import { RefundsQueue } from "./refunds-queue.tsx";
import { TicketQueue } from "./ticket-queue.tsx";
import { TransfersQueue } from "./transfers-queue.tsx";
import { VerificationsQueue } from "./verifications-queue.tsx";

const TABS = ["verifications", "transfers", "invoices", "refunds", "leads", "feedback"] as const;
type Tab = (typeof TABS)[number];

/** Back office → Queues: one tab per queue (verifications, transfers, invoices, refunds, leads, feedback). */
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
