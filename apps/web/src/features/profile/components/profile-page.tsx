import {
  ActionIcon,
  Alert,
  Avatar,
  Badge,
  Button,
  Card,
  CopyButton,
  Divider,
  Group,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
} from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { modals } from "@mantine/modals";
import { notifications } from "@mantine/notifications";
import type { MeWithOrgs, SessionInfo } from "@moonport/contracts";
import {
  IconCheck,
  IconCopy,
  IconDeviceDesktop,
  IconDeviceMobile,
  IconKey,
  IconPhone,
  IconShieldCheck,
} from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../../../components/page-header.tsx";
import { PageMeta } from "../../../components/page-meta.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { describeUserAgent, formatDate, formatDateTime } from "../../../lib/format.ts";
import { displayName } from "../../console/components/user-menu.tsx";
import { useSessions } from "../api/get-sessions.ts";
import { useRevokeSession } from "../api/revoke-session.ts";
import { BindPhoneModal } from "./bind-phone-modal.tsx";
import { ChangePasswordModal } from "./change-password-modal.tsx";
import { ChangeUsernameModal } from "./change-username-modal.tsx";

/** One labelled row of a profile card: label and value on the left, an action on the right. */
function InfoRow({
  label,
  value,
  action,
  icon,
}: {
  label: string;
  value: ReactNode;
  action?: ReactNode;
  icon?: ReactNode;
}) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm" py="sm">
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        {icon}
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text size="xs" c="dimmed" fw={500}>
            {label}
          </Text>
          <Text size="sm" fw={500} component="div" style={{ overflowWrap: "anywhere" }}>
            {value}
          </Text>
        </Stack>
      </Group>
      {action}
    </Group>
  );
}

function RowIcon({ children }: { children: ReactNode }) {
  return (
    <ThemeIcon variant="light" size={36} radius="md" visibleFrom="xs">
      {children}
    </ThemeIcon>
  );
}

function BasicInfoCard({ me, onChangeUsername }: { me: MeWithOrgs; onChangeUsername: () => void }) {
  const { t } = useTranslation("profile");
  const locale = useLocale();
  const name = displayName(me);
  return (
    <Card withBorder radius="lg" padding="lg">
      <Group gap="md" mb="md" wrap="nowrap">
        <Avatar size={56} radius="xl" color="indigo" variant="filled">
          {name.slice(0, 1).toUpperCase()}
        </Avatar>
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Title order={3} fz="lg" data-testid="profile-name">
              {name}
            </Title>
            {me.role === "operator" ? (
              <Badge variant="light" color="grape">
                {t("basic.operator")}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed">
            {t("basic.memberSince", { date: formatDate(me.createdAt, locale) })}
          </Text>
        </Stack>
      </Group>
      <Divider />
      <InfoRow
        label={t("basic.username")}
        value={me.username ?? <Text c="dimmed">{t("basic.noUsername")}</Text>}
        action={
          <Button variant="light" size="xs" onClick={onChangeUsername} data-testid="change-username">
            {me.username ? t("basic.change") : t("basic.set")}
          </Button>
        }
      />
      <Divider />
      <InfoRow
        label={t("basic.userId")}
        value={
          <Text ff="monospace" size="sm">
            {me.id}
          </Text>
        }
        action={
          <CopyButton value={me.id} timeout={2000}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? t("common:copied") : t("common:copy")} withArrow>
                <ActionIcon
                  variant="subtle"
                  color={copied ? "teal" : "gray"}
                  onClick={copy}
                  aria-label={t("common:copy")}
                >
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        }
      />
      <Divider />
      <InfoRow
        label={t("basic.organizations")}
        value={t("basic.organizationCount", { count: me.organizations.length })}
      />
    </Card>
  );
}

function SecurityCard({
  me,
  onChangePassword,
  onBindPhone,
}: {
  me: MeWithOrgs;
  onChangePassword: () => void;
  onBindPhone: () => void;
}) {
  const { t } = useTranslation("profile");
  return (
    <Card withBorder radius="lg" padding="lg">
      <Group gap="xs" mb="xs">
        <IconShieldCheck size={20} stroke={1.6} />
        <Title order={3} fz="md">
          {t("security.title")}
        </Title>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        {t("security.description")}
      </Text>
      <Divider />
      <InfoRow
        icon={
          <RowIcon>
            <IconPhone size={18} />
          </RowIcon>
        }
        label={t("security.phone")}
        value={
          me.phoneMasked ? (
            <span data-testid="phone-masked">{me.phoneMasked}</span>
          ) : (
            <Text c="dimmed" size="sm">
              {t("security.phoneNone")}
            </Text>
          )
        }
        action={
          <Button variant="light" size="xs" onClick={onBindPhone} data-testid="bind-phone">
            {me.phoneMasked ? t("phone.rebind") : t("phone.bind")}
          </Button>
        }
      />
      <Divider />
      <InfoRow
        icon={
          <RowIcon>
            <IconKey size={18} />
          </RowIcon>
        }
        label={t("security.password")}
        value={
          me.hasPassword ? (
            <Badge variant="light" color="teal" leftSection={<IconCheck size={12} />} tt="none">
              {t("security.passwordSet")}
            </Badge>
          ) : (
            <Text c="dimmed" size="sm">
              {t("security.passwordNone")}
            </Text>
          )
        }
        action={
          <Button variant="light" size="xs" onClick={onChangePassword} data-testid="change-password">
            {t("security.changePassword")}
          </Button>
        }
      />
    </Card>
  );
}

function SessionRow({ session }: { session: SessionInfo }) {
  const { t } = useTranslation("profile");
  const locale = useLocale();
  const revoke = useRevokeSession();
  const { browser, os } = describeUserAgent(session.userAgent);
  const device =
    browser && os ? t("sessions.browserOn", { browser, os }) : (browser ?? os ?? t("sessions.unknownDevice"));
  const mobile = os === "Android" || os === "iOS";

  const confirm = () =>
    modals.openConfirmModal({
      title: t("sessions.revokeTitle"),
      centered: true,
      children: <Text size="sm">{t("sessions.revokeText", { device })}</Text>,
      labels: { confirm: t("sessions.revoke"), cancel: t("common:cancel") },
      confirmProps: { color: "red" },
      onConfirm: () =>
        revoke.mutate(session.id, {
          onSuccess: () => notifications.show({ color: "teal", message: t("sessions.revoked") }),
          onError: (error) =>
            notifications.show({ color: "red", message: t("sessions.revokeFailed", { reason: error.message }) }),
        }),
    });

  return (
    <Group justify="space-between" wrap="nowrap" py="sm" gap="sm">
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        <RowIcon>{mobile ? <IconDeviceMobile size={18} /> : <IconDeviceDesktop size={18} />}</RowIcon>
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap={6}>
            <Text size="sm" fw={500}>
              {device}
            </Text>
            {session.current ? (
              <Badge size="xs" variant="light" color="teal">
                {t("sessions.current")}
              </Badge>
            ) : null}
          </Group>
          <Text size="xs" c="dimmed">
            {[session.ip, t("sessions.lastActive", { time: formatDateTime(session.lastSeenAt, locale) })]
              .filter(Boolean)
              .join(" · ")}
          </Text>
          <Text size="xs" c="dimmed">
            {t("sessions.signedIn", { time: formatDateTime(session.createdAt, locale) })}
          </Text>
        </Stack>
      </Group>
      {session.current ? null : (
        <Button variant="subtle" color="red" size="xs" onClick={confirm} loading={revoke.isPending}>
          {t("sessions.revoke")}
        </Button>
      )}
    </Group>
  );
}

function SessionsCard() {
  const { t } = useTranslation("profile");
  const sessions = useSessions();
  return (
    <Card withBorder radius="lg" padding="lg">
      <Title order={3} fz="md" mb={4}>
        {t("sessions.title")}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t("sessions.description")}
      </Text>
      <Divider />
      {sessions.isPending ? (
        <Stack gap="sm" py="sm">
          <Skeleton h={44} />
          <Skeleton h={44} />
        </Stack>
      ) : sessions.isError ? (
        <Alert color="red" variant="light" mt="sm">
          <Group justify="space-between">
            <Text size="sm">{t("sessions.loadFailed", { reason: sessions.error.message })}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => sessions.refetch()}>
              {t("common:retry")}
            </Button>
          </Group>
        </Alert>
      ) : (
        <Stack gap={0} data-testid="sessions">
          {[...sessions.data]
            .sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt))
            .map((s, i) => (
              <div key={s.id}>
                {i > 0 ? <Divider /> : null}
                <SessionRow session={s} />
              </div>
            ))}
        </Stack>
      )}
    </Card>
  );
}

/** Profile (docs/product-spec.md §2): basic info, security info, username, password, phone binding, active sessions. */
export function ProfilePage({ me }: { me: MeWithOrgs }) {
  const { t } = useTranslation("profile");
  const [usernameOpen, username] = useDisclosure(false);
  const [passwordOpen, password] = useDisclosure(false);
  const [phoneOpen, phone] = useDisclosure(false);
  return (
    <Stack maw={880} mx="auto" gap="lg">
      <PageMeta title={t("title")} />
      <PageHeader title={t("title")} description={t("description")} />
      <BasicInfoCard me={me} onChangeUsername={username.open} />
      <SecurityCard me={me} onChangePassword={password.open} onBindPhone={phone.open} />
      <SessionsCard />
      <ChangeUsernameModal opened={usernameOpen} onClose={username.close} current={me.username} />
      <ChangePasswordModal opened={passwordOpen} onClose={password.close} />
      <BindPhoneModal opened={phoneOpen} onClose={phone.close} currentPhone={me.phoneMasked} />
    </Stack>
  );
}
