import { Group, Table, Text } from "@mantine/core";
import { IconArrowsHorizontal } from "@tabler/icons-react";
import { type QueryKey, type UseQueryOptions, useQuery } from "@tanstack/react-query";
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import classes from "./data-table.module.css";
import { Pager } from "./pager.tsx";
import { LoadError, LoadingBlock } from "./states.tsx";

/** One column: its header and how a row renders in it. */
export interface DataColumn<T> {
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  align?: "left" | "right";
  /** Fixed width in px (action columns). */
  width?: number;
}

/** What a table shows while its data loads or fails: a react-query result fits. */
export interface TableQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

export interface DataTablePagination {
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
}

/**
 * Every console list: loading skeleton, error with retry, the designed empty state, rows, and server-side
 * pagination. Wider than the screen (phones), it scrolls sideways inside its frame with edge shadows and a hint,
 * so no column is cut off silently and the page itself never gets wider than the viewport.
 */
export function DataTable<T>({
  columns,
  rows,
  query,
  getRowId,
  empty,
  pagination,
  minWidth,
  rowTestId,
  striped = false,
  highlight,
  linkedRows = false,
}: {
  columns: DataColumn<T>[];
  rows: T[] | undefined;
  query: TableQuery;
  getRowId: (row: T) => string;
  empty: ReactNode;
  pagination?: DataTablePagination;
  minWidth?: number;
  rowTestId?: string;
  striped?: boolean;
  /** Rows shown in bold (the current tier). */
  highlight?: (row: T) => boolean;
  /** Each row has one link marked `data-row-link`; a click anywhere on the row follows it. */
  linkedRows?: boolean;
}) {
  const defs = useMemo(() => {
    const helper = createColumnHelper<T>();
    return columns.map((c) =>
      helper.display({
        id: c.id,
        header: () => c.header,
        cell: (ctx) => c.cell(ctx.row.original),
        meta: { align: c.align, width: c.width },
      }),
    );
  }, [columns]);
  const data = useMemo(() => rows ?? [], [rows]);
  const table = useReactTable({
    data,
    columns: defs,
    getRowId: (row) => getRowId(row),
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
  });

  if (query.isPending) return <LoadingBlock />;
  if (query.isError) return <LoadError error={query.error} onRetry={() => query.refetch()} />;
  if (data.length === 0 && (pagination?.total ?? 0) === 0) return <>{empty}</>;

  return (
    <>
      <ScrollFrame minWidth={minWidth}>
        <Table verticalSpacing="sm" highlightOnHover={!striped} striped={striped} miw={minWidth}>
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => {
                  const meta = header.column.columnDef.meta as ColumnMeta | undefined;
                  return (
                    <Table.Th key={header.id} ta={meta?.align} w={meta?.width} style={{ whiteSpace: "nowrap" }}>
                      {flexRender(header.column.columnDef.header, header.getContext())}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {table.getRowModel().rows.map((row) => (
              <Table.Tr
                key={row.id}
                data-testid={rowTestId}
                fw={highlight?.(row.original) ? 700 : undefined}
                className={linkedRows ? classes.linkedRow : undefined}
              >
                {row.getVisibleCells().map((cell) => {
                  const meta = cell.column.columnDef.meta as ColumnMeta | undefined;
                  return (
                    <Table.Td key={cell.id} ta={meta?.align}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollFrame>
      {pagination ? <Pager {...pagination} /> : null}
    </>
  );
}

type ColumnMeta = { align?: "left" | "right"; width?: number };

/** The sideways-scrolling frame with "more this way" shadows and, while anything is hidden, a hint line. */
function ScrollFrame({ children, minWidth }: { children: ReactNode; minWidth?: number }) {
  const { t } = useTranslation("org");
  const ref = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ left: false, right: false });
  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const left = el.scrollLeft > 1;
    const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setEdges((prev) => (prev.left === left && prev.right === right ? prev : { left, right }));
  }, []);
  useEffect(() => {
    measure();
    const el = ref.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure]);
  return (
    <>
      {edges.left || edges.right ? (
        <Group gap={6} mb={6} c="dimmed" data-testid="table-scroll-hint">
          <IconArrowsHorizontal size={14} />
          <Text size="xs">{t("state.scrollHint")}</Text>
        </Group>
      ) : null}
      <div
        className={classes.frame}
        data-more-left={edges.left || undefined}
        data-more-right={edges.right || undefined}
        data-min-width={minWidth}
      >
        <div ref={ref} className={classes.scroller} onScroll={measure} data-testid="table-scroller">
          {children}
        </div>
      </div>
    </>
  );
}

/** `pagination` for a page answer that states its own page size and total (undefined until it arrives). */
export function pagerOf(
  data: { pageSize: number; total: number } | undefined,
  page: number,
  onChange: (page: number) => void,
): DataTablePagination | undefined {
  return data ? { page, pageSize: data.pageSize, total: data.total, onChange } : undefined;
}

/** The `query` of a table whose rows are already loaded (part of a larger response). */
export const LOADED: TableQuery = { isPending: false, isError: false, error: null, refetch: () => undefined };

/**
 * A server-paged list for `DataTable`: the page number, the query for it, and the table props that follow
 * (`rows`, `query`, `pagination`). `options(page, pageSize)` is a feature's query-options factory.
 */
export function usePagedTable<TPage extends { items: unknown[]; total: number }, TKey extends QueryKey>(
  options: (page: number, pageSize: number) => UseQueryOptions<TPage, Error, TPage, TKey>,
  pageSize = 10,
) {
  const [page, setPage] = useState(1);
  const query = useQuery(options(page, pageSize));
  return {
    setPage,
    table: {
      rows: query.data?.items as TPage["items"] | undefined,
      query,
      pagination: query.data ? { page, pageSize, total: query.data.total, onChange: setPage } : undefined,
    },
  };
}
