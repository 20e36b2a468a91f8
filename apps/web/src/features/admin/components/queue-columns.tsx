import { Anchor, type MantineSize } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { DateTimeCell } from "../../../components/console-kit/cells.tsx";
import type { DataColumn } from "../../../components/console-kit/data-table.tsx";
import { paths } from "../../../lib/paths.ts";

/** An organization's name linking to its back-office detail. */
export function OrgLink({ orgId, orgName, size = "sm" }: { orgId: string; orgName: string; size?: MantineSize }) {
  return (
    <Anchor component={Link} to={paths.adminOrganization(orgId)} size={size}>
      {orgName}
    </Anchor>
  );
}

/** The columns every back-office queue shows: when the item was created (applied, requested) and whose it is. */
export const queueColumns = {
  created: <T extends { createdAt: string }>(header: ReactNode): DataColumn<T> => ({
    id: "created",
    header,
    cell: (r) => <DateTimeCell iso={r.createdAt} />,
  }),
  org: <T extends { orgId: string; orgName: string }>(header: ReactNode): DataColumn<T> => ({
    id: "org",
    header,
    cell: (r) => <OrgLink orgId={r.orgId} orgName={r.orgName} />,
  }),
  /** The row's buttons, at the right end without a header. */
  actions: <T,>(id: string, width: number, cell: (row: T) => ReactNode): DataColumn<T> => ({
    id,
    header: "",
    align: "right",
    width,
    cell,
  }),
};
