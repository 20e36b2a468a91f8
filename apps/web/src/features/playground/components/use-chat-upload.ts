import { useTranslation } from "react-i18next";
import { ApiError } from "../../../lib/api.ts";
import { ExtractionFailed, UploadTooLarge, uploadForChat } from "../api/upload-file.ts";
import type { AttachedFile } from "./composer.tsx";

/** The composer's upload: the file with its extracted text, or an Error whose message says why in the user's words. */
export function useChatUpload(orgId: string, projectId: string) {
  const { t } = useTranslation("playground");
  return async (file: File): Promise<AttachedFile> => {
    try {
      return await uploadForChat(orgId, projectId, file);
    } catch (e) {
      const reason =
        e instanceof UploadTooLarge
          ? t("upload.tooLarge")
          : e instanceof ExtractionFailed
            ? t("upload.extractionFailed", { reason: e.message })
            : e instanceof ApiError && e.code !== "network"
              ? e.message
              : t("errors.network");
      throw new Error(t("upload.failed", { reason }));
    }
  };
}
