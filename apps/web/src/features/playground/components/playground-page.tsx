import { Alert, Group, Select, Stack, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CurrentOrg } from "../../../components/console-kit/current-org.ts";
import { LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { PageMeta } from "../../../components/page-meta.tsx";
import { playgroundProjectsQuery } from "../api/get-projects.ts";
import { projectKey, read, store } from "../model/local-store.ts";
import classes from "./playground.module.css";
import { Workbench } from "./workbench.tsx";

/** /playground: chat, compare and edit against a project of the current organization. */
export function PlaygroundPage({ org }: { org: CurrentOrg }) {
  const { t } = useTranslation("playground");
  const projects = useQuery(playgroundProjectsQuery(org.id));
  const [projectId, setProjectId] = useState<string | null>(null);

  useEffect(() => {
    if (!projects.data || projectId) return;
    const saved = read(projectKey(org.id));
    const pick =
      projects.data.find((p) => p.value === saved) ?? projects.data.find((p) => p.isDefault) ?? projects.data[0];
    setProjectId(pick?.value ?? null);
  }, [projects.data, projectId, org.id]);

  return (
    <Stack gap="md" className={classes.root}>
      <PageMeta title={t("title")} />
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Title order={1} size="h3">
          {t("title")}
        </Title>
        {projects.data ? (
          <Select
            w={220}
            size="sm"
            aria-label={t("project")}
            placeholder={t("project")}
            data={projects.data.map((p) => ({ value: p.value, label: p.label }))}
            value={projectId}
            allowDeselect={false}
            onChange={(v) => {
              if (!v) return;
              store(projectKey(org.id), v);
              setProjectId(v);
            }}
            data-testid="project-select"
          />
        ) : null}
      </Group>
      {projects.isPending ? (
        <LoadingBlock />
      ) : projects.isError ? (
        <LoadError error={projects.error} onRetry={() => projects.refetch()} />
      ) : !projectId ? (
        <Alert color="yellow">{t("noProject")}</Alert>
      ) : (
        <Workbench key={projectId} org={org} projectId={projectId} />
      )}
    </Stack>
  );
}
