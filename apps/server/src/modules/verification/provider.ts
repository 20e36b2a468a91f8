/**
 * Verification providers decide an application. `builtin` (the default) relies on the format and checksum
 * checks the domain already ran (resident ID number, USCC check character, passport-style fields): a personal
 * application is approved at once; a company application goes to the operator review queue (CLI
 * `verification-queue`, `approve-verification`, `reject-verification`). `http` asks an identity service:
 *
 *   POST <VERIFICATION_HTTP_URL>   Authorization: Bearer <VERIFICATION_HTTP_TOKEN>
 *   { "applicationId", "orgId", "edition", "kind": "personal" | "company", "details": { …the entered fields } }
 *   → 200 { "decision": "approved" | "rejected" | "review", "reason"?: string, "reference"?: string }
 *
 * `review` leaves the application pending in the same operator queue. Anything else (a timeout after 10 s, a
 * non-2xx answer, a body of another shape) is `unavailable`: the application is not recorded, nothing changes
 * and the applicant sees "the verification service cannot be reached".
 */
import type { Edition } from "@moonport/contracts";
import { z } from "zod";
import type { AppContext } from "../../context.ts";

interface VerificationInput {
  applicationId: string;
  orgId: string;
  edition: Edition;
  kind: "personal" | "company";
  details: Record<string, string>;
}

type VerificationDecision =
  | { decision: "approved"; reference?: string }
  | { decision: "rejected"; reason: string; reference?: string }
  | { decision: "review"; reference?: string }
  | { decision: "unavailable" };

interface VerificationProvider {
  readonly name: "builtin" | "http";
  decide(input: VerificationInput): Promise<VerificationDecision>;
}

const builtin: VerificationProvider = {
  name: "builtin",
  // The checks already passed (the domain refuses bad input before any provider is asked).
  async decide(input) {
    return input.kind === "personal" ? { decision: "approved" } : { decision: "review" };
  },
};

const HttpAnswer = z.object({
  decision: z.enum(["approved", "rejected", "review"]),
  reason: z.string().max(500).optional(),
  reference: z.string().max(200).optional(),
});

function httpProvider(ctx: Pick<AppContext, "log">, url: string, token: string): VerificationProvider {
  return {
    name: "http",
    async decide(input) {
      try {
        const res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify(input),
          signal: AbortSignal.timeout(10_000),
        });
        if (!res.ok) {
          ctx.log.warn({ status: res.status }, "verification service answered an error");
          return { decision: "unavailable" };
        }
        const answer = HttpAnswer.safeParse(await res.json());
        if (!answer.success) {
          ctx.log.warn("verification service answered an unknown shape");
          return { decision: "unavailable" };
        }
        const a = answer.data;
        if (a.decision === "rejected") return { decision: "rejected", reason: a.reason || "-", reference: a.reference };
        return { decision: a.decision, reference: a.reference };
      } catch (err) {
        // The error's name only: a message could echo the request (personal data).
        ctx.log.warn({ error: (err as Error).name }, "verification service unreachable");
        return { decision: "unavailable" };
      }
    },
  };
}

export function verificationProvider(ctx: Pick<AppContext, "config" | "log">): VerificationProvider {
  const v = ctx.config.verification;
  return v.provider === "http" && v.http ? httpProvider(ctx, v.http.url, v.http.token) : builtin;
}
