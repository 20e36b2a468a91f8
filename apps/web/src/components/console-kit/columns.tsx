import type { OrgRole } from "@moonport/contracts";
import type { ReactNode } from "react";
import { CodeCell, DateTimeCell, RoleBadge, StrongCell, TextCell } from "./cells.tsx";
import type { DataColumn } from "./data-table.tsx";
import { type RowAction, RowActions } from "./row-actions.tsx";

/** One-line column definitions for the cells every console list shows. */
export const columns = {
  strong: <T,>(id: string, header: ReactNode, get: (row: T) => string): DataColumn<T> => ({
    id,
    header,
    cell: (row) => <StrongCell>{get(row)}</StrongCell>,
  }),
  text: <T,>(id: string, header: ReactNode, get: (row: T) => string | null | undefined): DataColumn<T> => ({
    id,
    header,
    cell: (row) => <TextCell>{get(row)}</TextCell>,
  }),
  code: <T,>(id: string, header: ReactNode, get: (row: T) => string): DataColumn<T> => ({
    id,
    header,
    cell: (row) => <CodeCell>{get(row)}</CodeCell>,
  }),
  dateTime: <T,>(id: string, header: ReactNode, get: (row: T) => string): DataColumn<T> => ({
    id,
    header,
    cell: (row) => <DateTimeCell iso={get(row)} />,
  }),
  role: <T,>(header: ReactNode, get: (row: T) => OrgRole): DataColumn<T> => ({
    id: "role",
    header,
    cell: (row) => <RoleBadge role={get(row)} />,
  }),
  /** The "…" menu; `actions` returns nothing for rows the caller may not change. */
  actions: <T,>(label: (row: T) => string, actions: (row: T) => RowAction[]): DataColumn<T> => ({
    id: "actions",
    header: null,
    width: 48,
    cell: (row) => <RowActions label={label(row)} actions={actions(row)} />,
  }),
};
