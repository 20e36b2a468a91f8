import { Anchor, Badge, Card, Group, Stack, Table, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router";

/** A titled card of a back-office detail screen; `empty` (when given) replaces the content. */
export function DetailCard({ title, empty, children }: { title: string; empty?: string | null; children: ReactNode }) {
  return (
    <Card withBorder padding="md">
      <Text fw={600} mb="xs">
        {title}
      </Text>
      {empty ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        children
      )}
    </Card>
  );
}

/** A list of names (linked when `to` is given) each with a role or status badge. */
export function BadgeList({
  rows,
}: {
  rows: { key: string; label: string; to?: string; badge: string; color: string }[];
}) {
  return (
    <Stack gap={4}>
      {rows.map((r) => (
        <Group key={r.key} justify="space-between" wrap="nowrap">
          {r.to ? (
            <Anchor component={Link} to={r.to} size="sm">
              {r.label}
            </Anchor>
          ) : (
            <Text size="sm">{r.label}</Text>
          )}
          <Badge size="sm" variant="light" color={r.color}>
            {r.badge}
          </Badge>
        </Group>
      ))}
    </Stack>
  );
}

export const roleColor = (role: string) => (role === "admin" ? "indigo" : "gray");

/** A small table inside a detail card: one header per column (`right` aligns a number column), one row per item. */
export function DetailTable<T>({
  columns,
  rows,
  rowKey,
  testId,
}: {
  columns: { header: string; right?: boolean; cell: (row: T) => ReactNode }[];
  rows: T[];
  rowKey: (row: T) => string;
  testId?: string;
}) {
  const align = (right?: boolean) => (right ? "right" : undefined);
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.header} ta={align(c.right)}>
                {c.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={rowKey(r)}>
              {columns.map((c) => (
                <Table.Td key={c.header} ta={align(c.right)}>
                  {c.cell(r)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
