import { ActionIcon, type ActionIconProps, Tooltip } from "@mantine/core";
import type { ReactNode } from "react";

/** An icon-only button: `label` is both its tooltip and its accessible name. */
export function IconButton({
  label,
  children,
  onClick,
  disabled,
  "data-testid": testId,
  ...props
}: Omit<ActionIconProps, "children"> & {
  label: string;
  children: ReactNode;
  onClick?: () => void;
  disabled?: boolean;
  "data-testid"?: string;
}) {
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon {...props} aria-label={label} onClick={onClick} disabled={disabled} data-testid={testId}>
        {children}
      </ActionIcon>
    </Tooltip>
  );
}
