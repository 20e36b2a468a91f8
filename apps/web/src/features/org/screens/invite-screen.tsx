import { Alert, Button, Card, Center, Group, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconMailOpened } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { api } from "../../../lib/api.ts";
import { invitationQuery, useRespondToInvitation } from "../api/queries.ts";
import { useFailureMessage } from "../components/failure.ts";
import { LoadingBlock } from "../components/states.tsx";

/**
 * "Confirm joining {organization_name}?" with Join and Cancel. A visitor who is not signed in is sent to sign
 * in or sign up and comes back here afterwards.
 */
export function InviteScreen({ token }: { token: string }) {
  const { t } = useTranslation("org");
  const navigate = useNavigate();
  const failure = useFailureMessage();
  const invitation = useQuery(invitationQuery(token));
  const session = useQuery({
    queryKey: ["me", "invite-check"],
    queryFn: () =>
      api<{ id: string }>("/api/me").then(
        () => true,
        () => false,
      ),
    retry: false,
  });
  const respond = useRespondToInvitation(token);
  const next = encodeURIComponent(`/invite/${token}`);

  let body: React.ReactNode;
  if (invitation.isPending || session.isPending) {
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
  } else if (!session.data) {
    body = (
      <Stack>
        <Text ta="center">{t("invite.signInFirst", { name: invitation.data.organizationName })}</Text>
        <Group justify="center">
          <Button component={Link} to={`/signin?next=${next}`}>
            {t("invite.signIn")}
          </Button>
          <Button component={Link} to={`/signup?next=${next}`} variant="default">
            {t("invite.signUp")}
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
            onClick={() => respond.mutate("decline", { onSuccess: () => navigate("/console") })}
          >
            {t("common:cancel")}
          </Button>
          <Button
            loading={respond.isPending}
            onClick={() => respond.mutate("accept", { onSuccess: () => navigate("/console") })}
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
