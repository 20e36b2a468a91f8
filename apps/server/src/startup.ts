import type { AppContext } from "./context.ts";
import { issueSetupToken } from "./modules/auth/index.ts";

/**
 * Work done once the server listens. While no operator account exists, every start prints a fresh one-time
 * setup link (older links stop working); there is no default password.
 */
export async function startupTasks(ctx: AppContext, baseUrl: string): Promise<{ setupUrl?: string }> {
  const token = await issueSetupToken({ db: ctx.db, now: ctx.clock.now() });
  if (!token) return {};
  const site = (ctx.config.sites[ctx.config.defaultEdition] ?? baseUrl).replace(/\/$/, "");
  const setupUrl = `${site}/setup?token=${token}`;
  ctx.log.warn(
    { setupUrl },
    `No operator account yet. Open ${setupUrl} to create it (one-time link), or run: npm run moonport -- create-operator --username <name>`,
  );
  return { setupUrl };
}
