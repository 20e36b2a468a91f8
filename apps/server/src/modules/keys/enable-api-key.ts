import type { Db } from "@moonport/db";
import type { KeyEvents } from "../../metering/key-events.ts";
import { setApiKeyStatus } from "./set-api-key-status.ts";

/** Re-enables a disabled key (it works again at once). Permission checks: caller. */
export function enableApiKey(opts: { db: Db; keyEvents: KeyEvents; orgId: string; keyId: string }): Promise<void> {
  return setApiKeyStatus({ ...opts, status: "enabled" });
}
