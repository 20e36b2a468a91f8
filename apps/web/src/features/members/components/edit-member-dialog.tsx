import { TextInput } from "@mantine/core";
import { type MemberRow, Nickname, OrgRole } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { useFailureMessage } from "../../../components/console-kit/failure.ts";
import { FormDialog, type RowDialogProps } from "../../../components/console-kit/form-dialog.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { useUpdateMember } from "../api/update-member.ts";
import { RoleSelect } from "./role-select.tsx";

const EditMember = z.object({ nickname: Nickname, role: OrgRole });

export function EditMemberDialog({ orgId, row: member, onClose }: RowDialogProps<MemberRow>) {
  const { t } = useTranslation("org");
  const failure = useFailureMessage();
  const update = useUpdateMember(orgId);
  const { form, field, error, dialog } = useDialogForm(EditMember, {
    opened: member !== null,
    onClose,
    values: { nickname: member?.nickname ?? "", role: member?.role ?? "member" },
    submit: async (values) => {
      if (member?.userId) await update.mutateAsync({ userId: member.userId, ...values });
    },
    failure: (reason) => failure("editMember", reason),
  });
  return (
    <FormDialog {...dialog} title={t("members.editTitle")}>
      <TextInput label={t("members.nickname")} withAsterisk data-autofocus {...field("nickname")} />
      <RoleSelect control={form.control} name="role" error={error("role")} />
    </FormDialog>
  );
}
