import fs from "node:fs/promises";
import {
  EDITION_LOCALE,
  FeedbackFields,
  type FeedbackItem,
  type Locale,
  SUPPORT_LABELS,
  SUPPORT_LIMITS,
} from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { type Limiter, limiterFor } from "../../lib/limiter.ts";
import { enqueueMail } from "../../mail/enqueue-mail.ts";
import { renderMail } from "../../mail/templates.ts";
import { rateLimited } from "../auth/index.ts";
import { toFeedbackItem } from "./list-feedback.ts";
import type { FeedbackImage } from "./receive-feedback.ts";

const EXTENSION: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
};

function feedbackPerUser(ctx: AppContext): Limiter {
  return limiterFor(ctx, "support:feedbackPerUser", SUPPORT_LIMITS.feedbackPerUserPerHour, 3600);
}

/**
 * Stores a member's feedback for the organization. The fields are validated first (nothing is written for bad
 * input); the images go to the generated-files store under `feedback/<org>/<id>/`, then the row is inserted with
 * their keys, so a row never points at a missing image. When SUPPORT_EMAIL is set the support team gets an
 * e-mail, committed with the row.
 */
export async function submitFeedback(opts: {
  ctx: AppContext;
  access: OrgAccess;
  fields: Record<string, string>;
  images: FeedbackImage[];
  locale: Locale;
}): Promise<FeedbackItem> {
  const { ctx, access } = opts;
  const parsed = FeedbackFields.safeParse(opts.fields);
  if (!parsed.success) {
    throw new AppError("validation_failed", {
      details: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    });
  }
  const limit = await feedbackPerUser(ctx).hit(access.userId);
  if (!limit.allowed) throw rateLimited(limit.retryAfterSeconds);
  const body = parsed.data;
  const id = newId("fb");
  const images: { key: string; contentType: string; bytes: number }[] = [];
  for (const [i, img] of opts.images.entries()) {
    const key = `feedback/${access.org.id}/${id}/${i + 1}.${EXTENSION[img.contentType]}`;
    const scratch = await ctx.exportFiles.scratchPath(`${id}-${i + 1}`);
    await fs.writeFile(scratch, img.data);
    const bytes = await ctx.exportFiles.put(key, scratch);
    images.push({ key, contentType: img.contentType, bytes });
  }
  const createdAt = ctx.clock.now();
  // Who sent it: for the support e-mail and the answer (the list shows the same name, or the id without one).
  const [user] = await ctx.db
    .select({ username: schema.users.username })
    .from(schema.users)
    .where(eq(schema.users.id, access.userId));
  const submittedBy = user?.username ?? access.userId;
  const row = await ctx.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(schema.feedback)
      .values({
        id,
        orgId: access.org.id,
        userId: access.userId,
        type: body.type,
        model: body.model ?? null,
        description: body.description,
        contact: body.contact ?? null,
        images,
        locale: opts.locale,
        createdAt,
      })
      .returning();
    const support = ctx.config.support.supportEmail;
    if (support) {
      const l = EDITION_LOCALE[ctx.config.defaultEdition];
      await enqueueMail(
        ctx,
        renderMail({
          template: "feedback_received",
          locale: l,
          brand: ctx.config.brandName,
          to: [support],
          params: {
            id,
            org: access.org.name,
            user: submittedBy,
            type: SUPPORT_LABELS.feedbackType[body.type][l],
            model: body.model ?? "—",
            description: body.description,
            contact: body.contact ?? "—",
            images: String(images.length),
            receivedAt: createdAt.toISOString(),
          },
        }),
        { tx, key: `feedback:${id}` },
      );
    }
    return inserted!;
  });
  return toFeedbackItem({ ...row, submittedBy });
}
