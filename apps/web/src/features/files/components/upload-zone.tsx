import { Alert, Button, Group, Paper, Progress, Select, Stack, Text } from "@mantine/core";
import { FILE_LIMITS } from "@moonport/contracts";
import { IconCloudUpload } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { type DragEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocale } from "../../../i18n/index.ts";
import { ApiError } from "../../../lib/api.ts";
import { fileProjectOptionsQuery } from "../api/get-project-options.ts";
import { useUploadFile } from "../api/upload-file.ts";
import { formatBytes } from "./format-bytes.ts";

/**
 * Drop a file here or choose one: checked against the 100 MB limit in the browser first (the server checks again
 * while the bytes arrive), then uploaded with a progress bar. Optionally recorded for one of the caller's projects.
 */
export function UploadZone({ orgId }: { orgId: string }) {
  const { t } = useTranslation("files");
  const locale = useLocale();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null);
  const [message, setMessage] = useState<{ color: "red" | "green"; text: string } | null>(null);
  const [projectId, setProjectId] = useState<string | null>(null);
  const projects = useQuery(fileProjectOptionsQuery(orgId));
  const upload = useUploadFile(orgId);

  function start(file: File | undefined) {
    if (!file || upload.isPending) return;
    setMessage(null);
    const reason =
      file.size === 0
        ? t("errors.empty")
        : file.size > FILE_LIMITS.maxFileBytes
          ? t("errors.tooLarge", { max: formatBytes(FILE_LIMITS.maxFileBytes, locale) })
          : null;
    if (reason) {
      setMessage({ color: "red", text: t("failure.upload", { reason }) });
      return;
    }
    setProgress({ name: file.name, fraction: 0 });
    upload.mutate(
      {
        file,
        purpose: "file-extract",
        projectId: projectId ?? undefined,
        onProgress: (fraction) => setProgress({ name: file.name, fraction }),
      },
      {
        onSuccess: (f) => setMessage({ color: "green", text: t("upload.done", { name: f.filename }) }),
        onError: (err) =>
          setMessage({
            color: "red",
            text: t("failure.upload", { reason: err instanceof ApiError ? err.message : t("failure.tryLater") }),
          }),
        onSettled: () => setProgress(null),
      },
    );
  }

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    start(e.dataTransfer.files[0]);
  };

  return (
    <Stack gap="sm">
      <Paper
        withBorder
        radius="md"
        p="lg"
        data-testid="files-dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        style={{
          borderStyle: "dashed",
          borderWidth: 2,
          borderColor: dragging ? "var(--mantine-primary-color-filled)" : undefined,
          background: dragging ? "var(--mantine-primary-color-light)" : undefined,
        }}
      >
        <Stack align="center" gap="xs">
          <IconCloudUpload size={36} stroke={1.5} aria-hidden />
          <Text fw={600} ta="center">
            {t("upload.title")}
          </Text>
          <Text size="sm" c="dimmed" ta="center">
            {t("upload.hint", { max: formatBytes(FILE_LIMITS.maxFileBytes, locale) })}
          </Text>
          <Group gap="sm" justify="center">
            <Select
              size="sm"
              w={220}
              placeholder={t("upload.noProject")}
              aria-label={t("upload.project")}
              data={projects.data ?? []}
              value={projectId}
              onChange={setProjectId}
              clearable
            />
            <Button onClick={() => input.current?.click()} loading={upload.isPending}>
              {t("upload.choose")}
            </Button>
          </Group>
          <input
            ref={input}
            type="file"
            hidden
            data-testid="files-input"
            onChange={(e) => {
              start(e.currentTarget.files?.[0]);
              e.currentTarget.value = "";
            }}
          />
        </Stack>
      </Paper>
      {progress ? (
        <div data-testid="files-progress">
          <Text size="sm" mb={4} truncate>
            {t("upload.progress", { name: progress.name, percent: Math.round(progress.fraction * 100) })}
          </Text>
          <Progress value={progress.fraction * 100} animated aria-label={t("upload.progressLabel")} />
        </div>
      ) : null}
      {message ? (
        <Alert
          color={message.color}
          variant="light"
          data-testid="files-upload-message"
          withCloseButton
          onClose={() => setMessage(null)}
        >
          {message.text}
        </Alert>
      ) : null}
    </Stack>
  );
}
