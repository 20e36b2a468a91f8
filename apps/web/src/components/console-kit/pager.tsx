import { Group, Pagination, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** Server-side pagination footer: "n items" and the page buttons (hidden when everything fits one page). */
export function Pager({
  total,
  page,
  pageSize,
  onChange,
}: {
  total: number;
  page: number;
  pageSize: number;
  onChange: (page: number) => void;
}) {
  const { t } = useTranslation("org");
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <Group justify="space-between" mt="md">
      <Text size="sm" c="dimmed">
        {t("state.total", { count: total })}
      </Text>
      {pages > 1 ? <Pagination total={pages} value={page} onChange={onChange} size="sm" /> : null}
    </Group>
  );
}
