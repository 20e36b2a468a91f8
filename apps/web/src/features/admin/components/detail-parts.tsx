import { Anchor, Badge, Card, Group, Stack, Text } from "@mantine/core";
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
