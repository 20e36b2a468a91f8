import { Button, Code, CopyButton, Group, Modal, ScrollArea, Stack, Tabs, Text } from "@mantine/core";
import type { ChatCompletionRequest } from "@moonport/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocale } from "../../../i18n/index.ts";
import { apiBaseUrl } from "../../../lib/site-config.ts";
import { type CodeLanguage, codeSample } from "../model/code-samples.ts";
import classes from "./playground.module.css";

/** View code: the current request as curl, Python and Node with the edition's API base URL and a placeholder key. */
export function CodeDialog({
  opened,
  onClose,
  request,
}: {
  opened: boolean;
  onClose: () => void;
  request: ChatCompletionRequest;
}) {
  const { t } = useTranslation("playground");
  const locale = useLocale();
  const [lang, setLang] = useState<CodeLanguage>("curl");
  const base = apiBaseUrl(locale);
  const code = codeSample(lang, request, base);
  return (
    <Modal opened={opened} onClose={onClose} title={t("code.title")} size="xl" className={classes.root}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t("code.hint")}
        </Text>
        <Tabs value={lang} onChange={(v) => v && setLang(v as CodeLanguage)}>
          <Tabs.List>
            <Tabs.Tab value="curl">curl</Tabs.Tab>
            <Tabs.Tab value="python">Python</Tabs.Tab>
            <Tabs.Tab value="node">Node.js</Tabs.Tab>
          </Tabs.List>
        </Tabs>
        <ScrollArea.Autosize mah="55vh">
          <Code block data-testid="code-sample" data-lang={lang}>
            {code}
          </Code>
        </ScrollArea.Autosize>
        <Group justify="flex-end">
          <CopyButton value={code}>
            {({ copied, copy }) => (
              <Button variant="light" onClick={copy}>
                {copied ? t("common:copied") : t("common:copy")}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Modal>
  );
}
