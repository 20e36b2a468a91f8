import { FeedbackItem, FeedbackPage } from "@moonport/contracts";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { orgApi, orgKey, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";

export const feedbackKeys = {
  list: (orgId: string, page: number) => [...orgKey(orgId), "feedback", page] as const,
};

/** GET /api/orgs/:orgId/feedback: the caller's own (admins: everyone's), newest first. */
export const feedbackQuery = (orgId: string, page: number) =>
  queryOptions({
    queryKey: feedbackKeys.list(orgId, page),
    queryFn: () => api(`${orgApi(orgId)}/feedback?page=${page}&pageSize=10`, { schema: FeedbackPage }),
    placeholderData: keepPreviousData,
  });

export interface FeedbackVars {
  type: string;
  model?: string;
  description: string;
  contact?: string;
  images: File[];
}

/** POST /api/orgs/:orgId/feedback (multipart: the fields and up to three images). */
export function useSubmitFeedback(orgId: string) {
  return useOrgMutation(orgId, (v: FeedbackVars) => {
    const form = new FormData();
    form.set("type", v.type);
    if (v.model) form.set("model", v.model);
    form.set("description", v.description);
    if (v.contact) form.set("contact", v.contact);
    for (const image of v.images) form.append("image", image);
    return api(`${orgApi(orgId)}/feedback`, { method: "POST", body: form, schema: FeedbackItem });
  });
}
