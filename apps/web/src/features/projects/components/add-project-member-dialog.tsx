import { Select, Text } from "@mantine/core";
import { ProjectRole, vmsg } from "@moonport/contracts";
import { useQuery } from "@tanstack/react-query";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { useFailureMessage } from "../../../components/console-kit/failure.ts";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { useAddProjectMember } from "../api/add-project-member.ts";
import { projectCandidatesQuery } from "../api/get-project-candidates.ts";

const AddMemberForm = z.object({ userId: z.string().min(1, vmsg("required")), role: ProjectRole });

/** Adds an organization member to the project (anyone else must first be invited to the organization). */
export function AddProjectMemberDialog({
  orgId,
  projectId,
  opened,
  onClose,
}: {
  orgId: string;
  projectId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation("org");
  const candidates = useQuery({ ...projectCandidatesQuery(orgId, projectId), enabled: opened });
  const add = useAddProjectMember(orgId, projectId);
  const failure = useFailureMessage();
  const { form, error, dialog } = useDialogForm(AddMemberForm, {
    opened,
    onClose,
    defaultValues: { userId: "", role: "member" },
    submit: async (values) => {
      await add.mutateAsync(values);
    },
    failure: (reason) => failure("inviteMember", reason),
  });
  const options = (candidates.data?.items ?? []).map((c) => ({
    value: c.userId,
    label: c.phoneMasked ? `${c.nickname} (${c.phoneMasked})` : c.nickname,
  }));
  return (
    <FormDialog
      {...dialog}
      title={t("projectMembers.addTitle")}
      submitLabel={t("projectMembers.addSubmit")}
      submitDisabled={!form.watch("userId")}
    >
      <Text size="sm" c="dimmed">
        {t("projectMembers.addHint")}
      </Text>
      <Controller
        control={form.control}
        name="userId"
        render={({ field }) => (
          <Select
            label={t("projectMembers.who")}
            data={options}
            value={field.value || null}
            onChange={(v) => field.onChange(v ?? "")}
            searchable
            withAsterisk
            nothingFoundMessage={t("projectMembers.noCandidates")}
            placeholder={candidates.isPending ? t("state.loading") : t("projectMembers.pick")}
            error={error("userId")}
            comboboxProps={{ withinPortal: true }}
            data-testid="project-member-select"
          />
        )}
      />
      <Controller
        control={form.control}
        name="role"
        render={({ field }) => (
          <Select
            label={t("members.role")}
            data={ProjectRole.options.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
            value={field.value}
            onChange={(v) => v && field.onChange(v)}
            withAsterisk
            allowDeselect={false}
            error={error("role")}
            comboboxProps={{ withinPortal: true }}
          />
        )}
      />
    </FormDialog>
  );
}
