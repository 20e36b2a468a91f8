import { Group, Text } from "@mantine/core";
import { useId } from "react";
import { useBrand } from "../lib/site-config.ts";

/** The brand mark (a crescent in the primary gradient) and the brand name (BRAND_NAME, from the site tokens). */
export function LogoMark({ size = 28 }: { size?: number }) {
  // A unique gradient id per mark: a duplicate id inside a hidden element would blank every other copy.
  const gradient = `mp-logo-${useId().replace(/:/g, "")}`;
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true">
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#4c6ef5" />
          <stop offset="1" stopColor="#7048e8" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="14" fill={`url(#${gradient})`} />
      <path d="M40 14a20 20 0 1 0 12 30A16 16 0 0 1 40 14z" fill="#fff" />
    </svg>
  );
}

/** `compact`: only the mark on phones, where the header has no room for the name. */
export function Logo({ size = 28, compact = false }: { size?: number; compact?: boolean }) {
  const brand = useBrand();
  return (
    <Group gap={8} wrap="nowrap">
      <LogoMark size={size} />
      <Text fw={700} fz="lg" lh={1} visibleFrom={compact ? "xs" : undefined}>
        {brand}
      </Text>
    </Group>
  );
}
