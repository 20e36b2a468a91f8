import type { BaseContext } from "./base-context.ts";
import type { EngineRouter } from "./engines/index.ts";
import type { JobRunner } from "./jobs/runner.ts";
import type { FileStorage } from "./lib/file-storage.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { GatewayPipelineHandle } from "./metering/create-gateway-pipeline.ts";
import type { KeyEvents } from "./metering/key-events.ts";
import type { SmsProvider } from "./modules/auth/index.ts";
import type { FilesService } from "./modules/files/index.ts";
import type { Outbound } from "./tools/outbound.ts";
import type { SecretBox } from "./tools/secret-box.ts";

export { type Clock, systemClock } from "./base-context.ts";

/**
 * What domain modules get from the app: configuration, the database and shared services. Built once in
 * buildApp; tests build their own.
 */
export interface AppContext extends BaseContext {
  sms: SmsProvider;
  /** E-mail transport (mail/mailer.ts); modules send through `enqueueMail`, a durable job. */
  mailer: Mailer;
  /** Generated files (bill exports): DATA_DIR on disk (lib/file-storage.ts). */
  exportFiles: FileStorage;
  /** Tell the gateway's caches (on every instance) that keys, projects or an organization changed. */
  keyEvents: KeyEvents;
  /**
   * The meter (metering/): authenticate → admit → settle for /v1, the playground and billed tools; charges for
   * bill lines outside a chat run; flush before bills are read. A test may stand in for its request-path calls.
   */
  meter: GatewayPipelineHandle;
  /** Model engines: the simulator and configured upstreams. */
  engines: EngineRouter;
  /** Durable background jobs (jobs/). Started by main.ts; tests drive it with `runDue()` and the clock. */
  jobs: JobRunner<AppContext>;
  /** Files API: the blob store (disk or S3) and the extraction worker pool (modules/files). */
  files: FilesService;
  /** The SSRF-guarded client every tool's outbound call goes through (tools/outbound.ts). */
  outbound: Outbound;
  /** Seals the credentials users give tools (MCP tokens and passwords) at rest (tools/secret-box.ts). */
  toolSecrets: SecretBox;
}
