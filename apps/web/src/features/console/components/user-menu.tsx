import { Avatar, Group, Menu, Text, UnstyledButton } from "@mantine/core";
import type { MeWithOrgs } from "@moonport/contracts";
import { IconChevronDown, IconLogout, IconShieldLock, IconUserCircle } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { paths } from "../../../lib/paths.ts";
import { useSignOut } from "../../auth/api/sign-out.ts";
import classes from "./console-shell.module.css";

export function displayName(me: MeWithOrgs): string {
  return me.username ?? me.phoneMasked ?? me.id;
}

export function UserMenu({ me }: { me: MeWithOrgs }) {
  const { t } = useTranslation("console");
  const navigate = useNavigate();
  const signOut = useSignOut();
  const name = displayName(me);
  return (
    <Menu position="bottom-end" width={220} withinPortal>
      <Menu.Target>
        <UnstyledButton className={classes.userButton} data-testid="user-menu" aria-label={t("user.menu")}>
          <Group gap={8} wrap="nowrap">
            <Avatar size={28} radius="xl" color="indigo" variant="filled">
              {name.slice(0, 1).toUpperCase()}
            </Avatar>
            <Text size="sm" fw={500} truncate maw={140} visibleFrom="sm">
              {name}
            </Text>
            <IconChevronDown size={14} stroke={1.6} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t("user.signedInAs", { name })}</Menu.Label>
        <Menu.Item component={Link} to={paths.profile} leftSection={<IconUserCircle size={16} stroke={1.6} />}>
          {t("nav.profile")}
        </Menu.Item>
        {me.role === "operator" ? (
          <Menu.Item
            component={Link}
            to={paths.admin}
            leftSection={<IconShieldLock size={16} stroke={1.6} />}
            data-testid="open-back-office"
          >
            {t("nav.backOffice")}
          </Menu.Item>
        ) : null}
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} stroke={1.6} />}
          data-testid="sign-out"
          onClick={() => signOut.mutate(undefined, { onSettled: () => navigate(paths.signIn(), { replace: true }) })}
        >
          {t("user.signOut")}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
