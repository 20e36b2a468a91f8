import { ApiErrorBody, FileObject, type FilePurpose } from "@moonport/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { orgApi, orgKey } from "../../../components/console-kit/org-api.ts";
import { ApiError, csrfToken } from "../../../lib/api.ts";

export interface UploadVars {
  file: File;
  purpose: FilePurpose;
  projectId?: string;
  /** 0…1 as the bytes leave the browser. */
  onProgress?: (fraction: number) => void;
}

/**
 * POST /api/orgs/:orgId/files (multipart). XMLHttpRequest rather than fetch: only it reports upload progress.
 */
function uploadFile(orgId: string, vars: UploadVars): Promise<FileObject> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append("purpose", vars.purpose);
    if (vars.projectId) form.append("projectId", vars.projectId);
    form.append("file", vars.file, vars.file.name);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `${orgApi(orgId)}/files`);
    xhr.withCredentials = true;
    xhr.setRequestHeader("accept", "application/json");
    const token = csrfToken();
    if (token) xhr.setRequestHeader("x-csrf-token", token);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) vars.onProgress?.(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ApiError(0, "network", xhr.statusText || "network error"));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const parsed = FileObject.safeParse(body);
        if (parsed.success) resolve(parsed.data);
        else reject(new ApiError(xhr.status, "bad_response", "unexpected response"));
        return;
      }
      const err = ApiErrorBody.safeParse(body);
      reject(
        new ApiError(
          xhr.status,
          err.success ? err.data.error.code : "network",
          err.success ? err.data.error.message : xhr.statusText,
          err.success ? err.data.error.details : undefined,
        ),
      );
    };
    xhr.send(form);
  });
}

export function useUploadFile(orgId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (vars: UploadVars) => uploadFile(orgId, vars),
    onSettled: () => qc.invalidateQueries({ queryKey: orgKey(orgId) }),
  });
}
