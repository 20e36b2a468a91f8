import { Alert, Button, Group, Text, TextInput } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";

/** The secret, once: a copy button, the warning, and the §8 message when the browser cannot copy. */
export function SecretReveal({ secret }: { secret: string }) {
  const { t } = useTranslation("org");
  const [copyState, setCopyState] = useState<"idle" | "copied" | "unsupported" | "failed">("idle");
  const copy = async () => {
    if (typeof navigator === "undefined" || !navigator.clipboard?.writeText) {
      setCopyState("unsupported");
      return;
    }
    try {
      await navigator.clipboard.writeText(secret);
      setCopyState("copied");
    } catch {
      setCopyState("failed");
    }
  };
  return (
    <>
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={16} />}>
        {t("keys.onceWarning")}
      </Alert>
      <Group gap="xs" wrap="nowrap" align="stretch">
        <TextInput
          value={secret}
          readOnly
          style={{ flex: 1 }}
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
          onFocus={(e) => e.currentTarget.select()}
          data-testid="api-key-secret"
          aria-label={t("keys.secret")}
        />
        <Button onClick={copy} color={copyState === "copied" ? "teal" : undefined}>
          {copyState === "copied" ? t("common:copied") : t("common:copy")}
        </Button>
      </Group>
      {copyState === "unsupported" || copyState === "failed" ? (
        <Text size="sm" c="red" role="alert">
          {t(copyState === "unsupported" ? "keys.copyUnsupported" : "keys.copyFailed")}
        </Text>
      ) : null}
    </>
  );
}
