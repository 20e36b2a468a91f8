import { TextInput } from "@mantine/core";
import { InviteMemberRequest } from "@moonport/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFailureMessage } from "../../../components/console-kit/failure.ts";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { useInviteMember } from "../api/invite-member.ts";
import { InviteLinkDialog } from "./invite-link-dialog.tsx";
import { RoleSelect } from "./role-select.tsx";

/** Invites a registered user by phone; the answer is a link for the admin to share. */
export function InviteDialog({ orgId, opened, onClose }: { orgId: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation("org");
  const failure = useFailureMessage();
  const invite = useInviteMember(orgId);
  const [link, setLink] = useState<string | null>(null);
  const { form, field, error, dialog, close } = useDialogForm(InviteMemberRequest, {
    opened,
    onClose: () => {
      setLink(null);
      onClose();
    },
    defaultValues: { phone: "", nickname: "", role: "member" },
    submit: async (values) => {
      const res = await invite.mutateAsync(values);
      setLink(`${window.location.origin}${res.path}`);
      return "stay";
    },
    failure: (reason) => failure("inviteMember", reason),
  });
  if (link) return <InviteLinkDialog link={opened ? link : null} onClose={close} />;
  return (
    <FormDialog {...dialog} title={t("members.inviteTitle")} submitLabel={t("members.inviteSubmit")} size="lg">
      <TextInput
        label={t("members.phone")}
        placeholder={t("members.phonePlaceholder")}
        withAsterisk
        data-autofocus
        {...field("phone")}
      />
      <TextInput
        label={t("members.nickname")}
        description={t("members.nicknameHint")}
        withAsterisk
        {...field("nickname")}
      />
      <RoleSelect control={form.control} name="role" error={error("role")} />
    </FormDialog>
  );
}
