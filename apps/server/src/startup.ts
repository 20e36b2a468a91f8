import type { AppContext } from "./context.ts";

/** Work done once the server listens (e.g. printing the one-time operator setup link). */
export async function startupTasks(_ctx: AppContext, _baseUrl: string): Promise<void> {}
