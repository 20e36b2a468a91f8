import { Select, TextInput } from "@mantine/core";
import { type MemberRow, Nickname, OrgRole } from "@moonport/contracts";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { useFailureMessage } from "../../../components/console-kit/failure.ts";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { useUpdateMember } from "../api/update-member.ts";

const EditMember = z.object({ nickname: Nickname, role: OrgRole });

export function EditMemberDialog({
  orgId,
  member,
  onClose,
}: {
  orgId: string;
  member: MemberRow | null;
  onClose: () => void;
}) {
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
      <Controller
        control={form.control}
        name="role"
        render={({ field: f }) => (
          <Select
            label={t("members.role")}
            withAsterisk
            data={OrgRole.options.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
            value={f.value}
            onChange={(v) => v && f.onChange(v)}
            error={error("role")}
            comboboxProps={{ withinPortal: true }}
          />
        )}
      />
    </FormDialog>
  );
}
