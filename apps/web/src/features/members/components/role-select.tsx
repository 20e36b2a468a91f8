import { Select } from "@mantine/core";
import { OrgRole } from "@moonport/contracts";
import { type Control, Controller, type FieldValues, type Path } from "react-hook-form";
import { useTranslation } from "react-i18next";

/** The organization role of a form (invite, edit member). */
export function RoleSelect<T extends FieldValues>({
  control,
  name,
  error,
}: {
  control: Control<T, unknown, FieldValues>;
  name: Path<T>;
  error?: string;
}) {
  const { t } = useTranslation("org");
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Select
          label={t("members.role")}
          withAsterisk
          allowDeselect={false}
          data={OrgRole.options.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
          value={field.value ?? null}
          onChange={(v) => field.onChange(v ?? undefined)}
          error={error}
          comboboxProps={{ withinPortal: true }}
        />
      )}
    />
  );
}
