import type { Db } from "@moonport/db";
import type { KeyEvents } from "../../metering/key-events.ts";
import { setApiKeyStatus } from "./set-api-key-status.ts";

/** Disables a key; the gateway refuses it within one second on every instance. Permission checks: caller. */
export function disableApiKey(opts: { db: Db; keyEvents: KeyEvents; orgId: string; keyId: string }): Promise<void> {
  return setApiKeyStatus({ ...opts, status: "disabled" });
}
