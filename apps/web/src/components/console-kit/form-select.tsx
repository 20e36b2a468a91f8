import { Select, type SelectProps } from "@mantine/core";
import { type Control, Controller, type FieldValues, type Path } from "react-hook-form";

/**
 * A Select bound to a form field of `useZodForm` (a Select is a controlled input, so it cannot be `register`ed).
 * Clearing it sets the field to `undefined`, so an optional field leaves the request.
 */
export function FormSelect<T extends FieldValues, TOut extends FieldValues>({
  control,
  name,
  ...props
}: { control: Control<T, unknown, TOut>; name: Path<T> } & Omit<SelectProps, "value" | "onChange" | "name">) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field: f }) => (
        <Select
          {...props}
          value={(f.value as string | null | undefined) ?? null}
          onChange={(v) => f.onChange(v ?? undefined)}
          onBlur={f.onBlur}
        />
      )}
    />
  );
}
