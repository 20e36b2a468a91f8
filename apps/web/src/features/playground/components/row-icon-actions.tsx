import { ActionIcon, Group, Tooltip } from "@mantine/core";
import { IconPencil, IconTrash } from "@tabler/icons-react";

/** Edit and delete icons of a card in the tools drawer (function tools, MCP servers), labelled for screen readers. */
export function RowIconActions(props: {
  editLabel: string;
  deleteLabel: string;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip label={props.editLabel} withArrow>
        <ActionIcon variant="subtle" color="gray" aria-label={props.editLabel} onClick={props.onEdit}>
          <IconPencil size={16} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={props.deleteLabel} withArrow>
        <ActionIcon variant="subtle" color="red" aria-label={props.deleteLabel} onClick={props.onDelete}>
          <IconTrash size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
