import { Group } from "@mantine/core";
import { IconPencil, IconTrash } from "@tabler/icons-react";
import { IconButton } from "../../../components/icon-button.tsx";

/** Edit and delete icons of a card in the tools drawer (function tools, MCP servers), labelled for screen readers. */
export function RowIconActions(props: {
  editLabel: string;
  deleteLabel: string;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <Group gap={4} wrap="nowrap">
      <IconButton label={props.editLabel} variant="subtle" color="gray" onClick={props.onEdit}>
        <IconPencil size={16} />
      </IconButton>
      <IconButton label={props.deleteLabel} variant="subtle" color="red" onClick={props.onDelete}>
        <IconTrash size={16} />
      </IconButton>
    </Group>
  );
}
