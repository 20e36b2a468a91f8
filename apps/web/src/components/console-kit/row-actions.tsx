import { ActionIcon, Menu } from "@mantine/core";
import { IconDots } from "@tabler/icons-react";
import type { ReactNode } from "react";

export interface RowAction {
  label: ReactNode;
  onClick: () => void;
  danger?: boolean;
}

/** The "…" menu at the end of a table row; renders nothing when the caller may do nothing with the row. */
export function RowActions({ label, actions }: { label: string; actions: RowAction[] }) {
  if (actions.length === 0) return null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={label}>
          <IconDots size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map((a, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed, short list built in render order
          <Menu.Item key={i} color={a.danger ? "red" : undefined} onClick={a.onClick}>
            {a.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
