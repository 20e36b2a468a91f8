import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { CopyField } from "../../../components/console-kit/copy-field.tsx";

/** The invitation link to share (shown once: only its hash is stored). */
export function InviteLinkDialog({
  link,
  resent = false,
  onClose,
}: {
  link: string | null;
  resent?: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation("org");
  return (
    <Modal opened={link !== null} onClose={onClose} title={t("members.linkTitle")} size="lg" centered>
      <Stack>
        <Text size="sm">{t(resent ? "members.resentText" : "members.linkText")}</Text>
        {link ? <CopyField value={link} /> : null}
        <Group justify="flex-end">
          <Button onClick={onClose}>{t("keys.done")}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
