import { Badge, Card, Group, Modal, SimpleGrid, Stack, Text, UnstyledButton } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { type PlaygroundTemplate, TEMPLATES } from "../model/templates.ts";
import classes from "./playground.module.css";

/** The showcase gallery: each scenario opens in its own mode with its models, parameters and conversation. */
export function TemplatesDialog({
  opened,
  onClose,
  onPick,
}: {
  opened: boolean;
  onClose: () => void;
  onPick: (tpl: PlaygroundTemplate) => void;
}) {
  const { t } = useTranslation("playground");
  return (
    <Modal opened={opened} onClose={onClose} title={t("templates.title")} size="xl" className={classes.root}>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
        {TEMPLATES.map((tpl) => (
          <UnstyledButton
            key={tpl.id}
            onClick={() => onPick(tpl)}
            data-testid={`template-${tpl.id}`}
            aria-label={t(`templates.${tpl.id}.title`)}
          >
            <Card withBorder padding="sm" radius="md" h="100%">
              <Stack gap={6}>
                <Group justify="space-between" gap={6} wrap="nowrap" align="flex-start">
                  <Text fw={600} size="sm" style={{ minWidth: 0 }}>
                    {t(`templates.${tpl.id}.title`)}
                  </Text>
                  {/* The mode label never shrinks into "COMPA…": the title wraps instead. */}
                  <Badge size="xs" variant="light" style={{ flexShrink: 0 }} mt={2}>
                    {t(`modes.${tpl.mode}`)}
                  </Badge>
                </Group>
                <Text size="xs" c="dimmed">
                  {t(`templates.${tpl.id}.description`)}
                </Text>
              </Stack>
            </Card>
          </UnstyledButton>
        ))}
      </SimpleGrid>
    </Modal>
  );
}
