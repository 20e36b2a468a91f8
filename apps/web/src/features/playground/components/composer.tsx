import { ActionIcon, Badge, FileButton, Group, Image, Loader, Stack, Text, Textarea } from "@mantine/core";
import type { PlaygroundFile } from "@moonport/contracts";
import { IconFile, IconPaperclip, IconPhoto, IconPlayerStopFilled, IconSend, IconX } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { IconButton } from "../../../components/icon-button.tsx";

const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** A file uploaded for the next message, with its extracted text. */
export interface AttachedFile {
  file: PlaygroundFile;
  content: string;
}

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error);
    r.readAsDataURL(file);
  });
}

/**
 * The input of chat and compare: Enter sends, Shift+Enter makes a new line; the send button becomes a stop
 * button while a run streams (Escape stops too). Images can be attached for vision models.
 */
export function Composer({
  running,
  disabled,
  disabledReason,
  vision,
  onSend,
  onStop,
  onUpload,
}: {
  running: boolean;
  disabled?: boolean;
  disabledReason?: string;
  vision: boolean;
  onSend: (text: string, images: string[], files: AttachedFile[]) => void;
  onStop: () => void;
  /** Uploads a file through the Files API and returns its extracted text; throws a message for §8. */
  onUpload: (file: File) => Promise<AttachedFile>;
}) {
  const { t } = useTranslation("playground");
  const [text, setText] = useState("");
  const [images, setImages] = useState<string[]>([]);
  const [imageError, setImageError] = useState<string | null>(null);
  const [files, setFiles] = useState<AttachedFile[]>([]);
  const [uploading, setUploading] = useState<string | null>(null);
  const send = () => {
    if (running || disabled || uploading || (!text.trim() && !images.length)) return;
    onSend(text, images, files);
    setText("");
    setImages([]);
    setFiles([]);
  };
  const upload = async (file: File | null) => {
    if (!file) return;
    setImageError(null);
    setUploading(file.name);
    try {
      const attached = await onUpload(file);
      setFiles((prev) => [...prev, attached].slice(0, 10));
    } catch (e) {
      setImageError(e instanceof Error ? e.message : String(e));
    } finally {
      setUploading(null);
    }
  };
  const attach = async (files: File[]) => {
    setImageError(null);
    const next: string[] = [];
    for (const f of files) {
      if (!f.type.startsWith("image/")) {
        setImageError(t("chat.imageType"));
        continue;
      }
      if (f.size > MAX_IMAGE_BYTES) {
        setImageError(t("chat.imageTooLarge"));
        continue;
      }
      next.push(await readDataUrl(f));
    }
    setImages((prev) => [...prev, ...next].slice(0, 10));
  };
  return (
    <Stack gap={6}>
      {images.length ? (
        <Group gap={6}>
          {images.map((src, i) => (
            <div key={src.slice(-32) + String(i)} style={{ position: "relative" }}>
              <Image src={src} alt={t("chat.imageAlt", { n: i + 1 })} w={56} h={56} fit="cover" radius="sm" />
              <ActionIcon
                size="xs"
                variant="filled"
                color="gray"
                style={{ position: "absolute", top: -6, right: -6 }}
                onClick={() => setImages((prev) => prev.filter((_, j) => j !== i))}
                aria-label={t("chat.removeImage")}
              >
                <IconX size={12} />
              </ActionIcon>
            </div>
          ))}
        </Group>
      ) : null}
      {files.length || uploading ? (
        <Group gap={6}>
          {files.map((f) => (
            <Badge
              key={f.file.id}
              variant="light"
              // File names as they are, not upper-cased like a label.
              tt="none"
              leftSection={<IconFile size={12} />}
              rightSection={
                <ActionIcon
                  size="xs"
                  variant="transparent"
                  onClick={() => setFiles((prev) => prev.filter((x) => x.file.id !== f.file.id))}
                  aria-label={t("chat.removeFile", { name: f.file.filename })}
                >
                  <IconX size={10} />
                </ActionIcon>
              }
              data-testid="attached-file"
            >
              {f.file.filename}
            </Badge>
          ))}
          {uploading ? (
            <Badge variant="outline" tt="none" leftSection={<Loader size={10} />}>
              {t("chat.uploading", { name: uploading })}
            </Badge>
          ) : null}
        </Group>
      ) : null}
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <FileButton onChange={(f) => void upload(f)}>
          {(props) => (
            <IconButton
              {...props}
              label={t("chat.attachFile")}
              variant="default"
              size="lg"
              disabled={disabled || !!uploading}
              data-testid="attach-file"
            >
              <IconPaperclip size={18} />
            </IconButton>
          )}
        </FileButton>
        {vision ? (
          <FileButton onChange={(f) => void attach(f)} accept="image/png,image/jpeg,image/webp,image/gif" multiple>
            {(props) => (
              <IconButton {...props} label={t("chat.attachImage")} variant="default" size="lg" disabled={disabled}>
                <IconPhoto size={18} />
              </IconButton>
            )}
          </FileButton>
        ) : null}
        <Textarea
          style={{ flex: 1 }}
          autosize
          minRows={1}
          maxRows={8}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          placeholder={disabled ? disabledReason : t("chat.placeholder")}
          aria-label={t("chat.inputLabel")}
          disabled={disabled}
          data-testid="composer"
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            }
          }}
        />
        {running ? (
          <ActionIcon size="lg" color="red" onClick={onStop} aria-label={t("chat.stop")} data-testid="stop">
            <IconPlayerStopFilled size={18} />
          </ActionIcon>
        ) : (
          <ActionIcon size="lg" onClick={send} aria-label={t("chat.send")} disabled={disabled} data-testid="send">
            <IconSend size={18} />
          </ActionIcon>
        )}
      </Group>
      {imageError ? (
        <Text size="xs" c="red">
          {imageError}
        </Text>
      ) : (
        <Text size="xs" c="dimmed">
          {t("chat.keys")}
        </Text>
      )}
    </Stack>
  );
}
