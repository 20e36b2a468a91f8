import { Badge, Group, TextInput } from "@mantine/core";
import type { AdminOrganizationRow } from "@moonport/contracts";
import { IconSearch } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { DateTimeCell } from "../../../components/console-kit/cells.tsx";
import { type DataColumn, DataTable, pagerOf } from "../../../components/console-kit/data-table.tsx";
import { money } from "../../../components/console-kit/money.ts";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { paths } from "../../../lib/paths.ts";
import { organizationsQuery } from "../api/admin.ts";
import { useSearchPage } from "./use-search-page.ts";

/** Back office → Organizations: search by name or id, newest first; a row opens the organization. */
export function OrganizationsScreen() {
  const { t } = useTranslation("admin");
  const { search, setSearch, q, page, setPage } = useSearchPage();
  const list = useQuery(organizationsQuery(q, page));
  const columns: DataColumn<AdminOrganizationRow>[] = [
    {
      id: "name",
      header: t("orgs.name"),
      cell: (r) => (
        <Group gap={6} wrap="nowrap">
          <Link to={paths.adminOrganization(r.id)} data-testid="admin-org-link">
            {r.name}
          </Link>
          {r.personal ? (
            <Badge size="xs" variant="light" color="gray">
              {t("orgs.personal")}
            </Badge>
          ) : null}
        </Group>
      ),
    },
    { id: "edition", header: t("orgs.edition"), cell: (r) => t(`editions.${r.edition}`) },
    { id: "members", header: t("orgs.members"), align: "right", cell: (r) => r.members },
    { id: "balance", header: t("orgs.balance"), align: "right", cell: (r) => money(r.balance.total, r.currency) },
    {
      id: "recharged",
      header: t("orgs.recharged"),
      align: "right",
      cell: (r) => money(r.cumulativeRecharge, r.currency),
    },
    { id: "tier", header: t("orgs.tier"), cell: (r) => t(`common:tierName.${r.tier.tier}`) },
    { id: "created", header: t("orgs.created"), cell: (r) => <DateTimeCell iso={r.createdAt} /> },
  ];
  return (
    <>
      <PageHeader title={t("orgs.title")} description={t("orgs.description")} />
      <TextInput
        placeholder={t("orgs.search")}
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={420}
        mb="md"
        data-testid="admin-org-search"
      />
      <DataTable
        columns={columns}
        rows={list.data?.items}
        query={list}
        getRowId={(r) => r.id}
        rowTestId="admin-org-row"
        minWidth={820}
        empty={<EmptyState title={t("orgs.empty")} />}
        pagination={pagerOf(list.data, page, setPage)}
      />
    </>
  );
}
