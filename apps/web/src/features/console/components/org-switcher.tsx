import { Badge, Group, Menu, Stack, Text, UnstyledButton } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { MeWithOrgs } from "@moonport/contracts";
import { IconBuilding, IconCheck, IconSelector, IconUser } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { useSetCurrentOrg } from "../../orgs/api/set-current-org.ts";
import classes from "./console-shell.module.css";

/** The organization the console works in; switching is stored server-side (PUT /api/me/current-org). */
export function OrgSwitcher({ me }: { me: MeWithOrgs }) {
  const { t } = useTranslation("console");
  const setCurrent = useSetCurrentOrg();
  const current = me.organizations.find((o) => o.id === me.currentOrganizationId) ?? me.organizations[0];
  if (!current) return null;

  const choose = (orgId: string) => {
    if (orgId === current.id) return;
    setCurrent.mutate(
      { orgId },
      {
        onError: (error) =>
          notifications.show({ color: "red", message: t("org.switchFailed", { reason: error.message }) }),
      },
    );
  };

  return (
    <Menu position="bottom-start" width={300} withinPortal>
      <Menu.Target>
        <UnstyledButton className={classes.orgButton} data-testid="org-switcher" aria-label={t("org.switch")}>
          <Group gap={8} wrap="nowrap">
            {current.personal ? <IconUser size={16} stroke={1.6} /> : <IconBuilding size={16} stroke={1.6} />}
            <Text size="sm" fw={600} truncate maw={{ base: 150, sm: 220 }}>
              {current.name}
            </Text>
            <IconSelector size={14} stroke={1.6} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t("org.label")}</Menu.Label>
        {me.organizations.map((o) => (
          <Menu.Item
            key={o.id}
            onClick={() => choose(o.id)}
            leftSection={o.personal ? <IconUser size={16} stroke={1.6} /> : <IconBuilding size={16} stroke={1.6} />}
            rightSection={o.id === current.id ? <IconCheck size={14} /> : null}
          >
            <Stack gap={4} style={{ minWidth: 0 }}>
              <Text size="sm" fw={500} truncate>
                {o.name}
              </Text>
              <Group gap={4} wrap="nowrap">
                <Badge size="xs" variant="light" color={o.role === "admin" ? "indigo" : "gray"}>
                  {t(`org.role.${o.role}`)}
                </Badge>
                {o.personal ? (
                  <Badge size="xs" variant="light" color="gray">
                    {t("org.personal")}
                  </Badge>
                ) : null}
                <Badge size="xs" variant="outline" color="gray">
                  {o.currency}
                </Badge>
              </Group>
            </Stack>
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
