import { Alert, Button, Card, Center, Group, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconMailOpened } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { useFailureMessage } from "../../../components/console-kit/failure.ts";
import { LoadingBlock } from "../../../components/console-kit/states.tsx";
import { paths } from "../../../lib/paths.ts";
import { invitationQuery } from "../api/get-invitation.ts";
import { useRespondToInvitation } from "../api/respond-to-invitation.ts";

/** Who is signed in, as the route learned it (the auth feature owns the session). */
export type InviteSession =
  | { state: "pending" }
  | { state: "signedOut" }
  | { state: "signedIn"; name: string; phoneMasked: string | null };

/**
 * "Confirm joining {organization_name}?" with Join and Cancel. A visitor who is not signed in is sent to sign
 * in or sign up and comes back here afterwards; someone signed in with another account than the invited one is
 * told so and can sign out and continue with the right one.
 */
export function InviteScreen({
  token,
  session,
  onSwitchAccount,
  switching,
}: {
  token: string;
  session: InviteSession;
  onSwitchAccount: () => void;
  switching: boolean;
}) {
  const { t } = useTranslation("org");
  const navigate = useNavigate();
  const failure = useFailureMessage();
  const invitation = useQuery(invitationQuery(token));
  const respond = useRespondToInvitation(token);
  const here = paths.invite(token);

  let body: ReactNode;
  if (invitation.isPending || session.state === "pending") {
    body = <LoadingBlock rows={3} />;
  } else if (invitation.isError) {
    body = (
      <Alert color="red" variant="light" title={t("invite.invalidTitle")}>
        {invitation.error.message}
      </Alert>
    );
  } else if (invitation.data.status !== "open") {
    body = (
      <Alert color="yellow" variant="light" title={t("invite.invalidTitle")}>
        {t(`invite.state.${invitation.data.status}`, { name: invitation.data.organizationName })}
      </Alert>
    );
  } else if (session.state === "signedOut") {
    body = (
      <Stack>
        <Text ta="center">{t("invite.signInFirst", { name: invitation.data.organizationName })}</Text>
        <Group justify="center">
          <Button component={Link} to={paths.signIn(here)}>
            {t("invite.signIn")}
          </Button>
          <Button component={Link} to={paths.signUp(here)} variant="default">
            {t("invite.signUp")}
          </Button>
        </Group>
      </Stack>
    );
  } else if (invitation.data.forSignedInUser === false) {
    body = (
      <Stack data-testid="invite-other-account">
        <Title order={3} ta="center">
          {t("invite.confirm", { name: invitation.data.organizationName })}
        </Title>
        <Alert color="yellow" variant="light" title={t("invite.otherAccountTitle")}>
          {t("invite.otherAccount", {
            user: session.phoneMasked ? `${session.name} (${session.phoneMasked})` : session.name,
            phone: invitation.data.phoneMasked,
          })}
        </Alert>
        <Group justify="center">
          <Button variant="default" component={Link} to={paths.console}>
            {t("invite.stay")}
          </Button>
          <Button loading={switching} onClick={onSwitchAccount}>
            {t("invite.switchAccount")}
          </Button>
        </Group>
      </Stack>
    );
  } else {
    body = (
      <Stack>
        <Title order={3} ta="center" data-testid="invite-question">
          {t("invite.confirm", { name: invitation.data.organizationName })}
        </Title>
        <Text size="sm" c="dimmed" ta="center">
          {t("invite.details", { nickname: invitation.data.nickname, role: t(`roles.${invitation.data.role}`) })}
        </Text>
        {respond.isError ? (
          <Alert color="red" variant="light">
            {failure("joinInvitation", respond.error)}
          </Alert>
        ) : null}
        <Group justify="center">
          <Button
            variant="default"
            disabled={respond.isPending}
            onClick={() => respond.mutate("decline", { onSuccess: () => navigate(paths.console) })}
          >
            {t("common:cancel")}
          </Button>
          <Button
            loading={respond.isPending}
            onClick={() => respond.mutate("accept", { onSuccess: () => navigate(paths.console) })}
          >
            {t("invite.join")}
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Center mih="100vh" p="md">
      <Card withBorder padding="xl" w="100%" maw={480} shadow="sm">
        <Stack align="stretch">
          <Center>
            <ThemeIcon size={56} radius="xl" variant="light">
              <IconMailOpened size={28} />
            </ThemeIcon>
          </Center>
          <Text ta="center" c="dimmed" size="sm">
            {t("invite.title")}
          </Text>
          {body}
        </Stack>
      </Card>
    </Center>
  );
}
