import { Text } from "@mantine/core";
import type { MemberRow } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { useFailureMessage } from "../../../components/console-kit/failure.ts";
import { ConfirmDialog, type RowDialogProps } from "../../../components/console-kit/form-dialog.tsx";
import { useRemoveMember } from "../api/remove-member.ts";
import { useRevokeInvitation } from "../api/revoke-invitation.ts";

/** Removes a joined member, or revokes a pending invitation. */
export function RemoveMemberDialog({ orgId, row: member, onClose }: RowDialogProps<MemberRow>) {
  const { t } = useTranslation("org");
  const failure = useFailureMessage();
  const remove = useRemoveMember(orgId);
  const revoke = useRevokeInvitation(orgId);
  const pending = member?.status === "pending";
  const mutation = pending ? revoke : remove;
  const done = () => {
    remove.reset();
    revoke.reset();
    onClose();
  };
  const name = member?.nickname ?? "";
  return (
    <ConfirmDialog
      opened={member !== null}
      onClose={done}
      title={pending ? t("members.revokeTitle") : t("members.removeTitle")}
      confirmLabel={pending ? t("members.revoke") : t("members.remove")}
      pending={mutation.isPending}
      error={mutation.isError ? failure("deleteMember", mutation.error) : undefined}
      onConfirm={() => {
        if (pending && member?.invitationId) revoke.mutate(member.invitationId, { onSuccess: done });
        else if (member?.userId) remove.mutate(member.userId, { onSuccess: done });
      }}
    >
      <Text size="sm">{pending ? t("members.revokeText", { name }) : t("members.removeText", { name })}</Text>
    </ConfirmDialog>
  );
}
