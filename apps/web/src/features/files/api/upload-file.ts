import { FileObject, type FilePurpose } from "@moonport/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { orgApi, orgKey } from "../../../components/console-kit/org-api.ts";
import { apiUpload } from "../../../lib/api.ts";

export interface UploadVars {
  file: File;
  purpose: FilePurpose;
  projectId?: string;
  /** 0…1 as the bytes leave the browser. */
  onProgress?: (fraction: number) => void;
}

/** POST /api/orgs/:orgId/files (multipart), reporting progress. */
function uploadFile(orgId: string, vars: UploadVars): Promise<FileObject> {
  const form = new FormData();
  form.append("purpose", vars.purpose);
  if (vars.projectId) form.append("projectId", vars.projectId);
  form.append("file", vars.file, vars.file.name);
  return apiUpload(`${orgApi(orgId)}/files`, form, { schema: FileObject, onProgress: vars.onProgress });
}

export function useUploadFile(orgId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (vars: UploadVars) => uploadFile(orgId, vars),
    onSettled: () => qc.invalidateQueries({ queryKey: orgKey(orgId) }),
  });
}
