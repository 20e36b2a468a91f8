import { Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { CopyField } from "../../../components/console-kit/copy-field.tsx";
import { InfoDialog } from "../../../components/console-kit/form-dialog.tsx";

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
    <InfoDialog opened={link !== null} onClose={onClose} title={t("members.linkTitle")} doneLabel={t("keys.done")}>
      <Text size="sm">{t(resent ? "members.resentText" : "members.linkText")}</Text>
      {link ? <CopyField value={link} /> : null}
    </InfoDialog>
  );
}
