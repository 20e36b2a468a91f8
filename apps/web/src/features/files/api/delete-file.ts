import { DeletedFile } from "@moonport/contracts";
import { orgApi, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";

/** DELETE /api/orgs/:orgId/files/:fileId */
export const useDeleteFile = (orgId: string) =>
  useOrgMutation(orgId, (fileId: string) =>
    api(`${orgApi(orgId)}/files/${encodeURIComponent(fileId)}`, { method: "DELETE", schema: DeletedFile }),
  );
