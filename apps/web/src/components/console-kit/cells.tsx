import { Badge, Stack, Text } from "@mantine/core";
import type { OrgRole } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { useLocale } from "../../i18n/index.ts";
import { formatDateTime } from "../../lib/format.ts";

/** Table cells every console list uses, so columns stay one line each. */
export function StrongCell({ children }: { children: string }) {
  return (
    <Text fw={500} size="sm">
      {children}
    </Text>
  );
}

/** Plain text; an em dash when there is nothing. */
export function TextCell({ children }: { children: string | null | undefined }) {
  return (
    <Text size="sm" c={children ? undefined : "dimmed"}>
      {children || "—"}
    </Text>
  );
}

/** An identifier or number to read character by character (request id, invoice number). */
export function CodeCell({ children }: { children: string }) {
  return (
    <Text size="sm" ff="monospace">
      {children}
    </Text>
  );
}

export function DateTimeCell({ iso }: { iso: string }) {
  return <Text size="sm">{formatDateTime(iso, useLocale())}</Text>;
}

export function RoleBadge({ role }: { role: OrgRole }) {
  const { t } = useTranslation("org");
  return (
    <Badge variant="light" color={role === "admin" ? "indigo" : "gray"}>
      {t(`roles.${role}`)}
    </Badge>
  );
}

/**
 * Several related figures in one column, one "label value" line each: a table of many numbers then fits a laptop
 * screen (1366 px) instead of scrolling sideways.
 */
export function LinesCell({
  lines,
  align = "right",
}: {
  lines: { label: string; value: string }[];
  align?: "left" | "right";
}) {
  return (
    <Stack gap={0} align={align === "right" ? "flex-end" : "flex-start"}>
      {lines.map((l) => (
        <Text key={l.label} size="xs" style={{ whiteSpace: "nowrap" }}>
          <Text span size="xs" c="dimmed">
            {l.label}
          </Text>{" "}
          {l.value}
        </Text>
      ))}
    </Stack>
  );
}
