/**
 * The only reader of process.env. One zod schema validates every variable at start and names each bad one.
 * Code that needs configuration takes a `Config` argument, so tests build their own with `buildConfig`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BRAND_UNSAFE_CHARS } from "@moonport/contracts";
import { z } from "zod";

/** Documentation sources in the repository; the simulator answers from them and searches them for `$web_search`. */
const DEFAULT_DOCS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../web/content/docs");

const bool = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");
const url = (proto: RegExp, hint: string) =>
  z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v))
    .refine((v) => v === undefined || proto.test(v), { message: `must be a URL starting with ${hint}` });

/** What each real payment provider needs besides its PAYMENT_*_PROVIDER choice (checked at start, and named in
 * the start-up log for a pay type that is not offered). */
export const PAYMENT_PROVIDER_VARIABLES = {
  stripe: ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"],
  alipay: ["ALIPAY_APP_ID", "ALIPAY_PRIVATE_KEY", "ALIPAY_PUBLIC_KEY", "PAYMENT_NOTIFY_BASE_URL"],
  wechatpay: [
    "WECHATPAY_APP_ID",
    "WECHATPAY_MCH_ID",
    "WECHATPAY_MCH_SERIAL",
    "WECHATPAY_PRIVATE_KEY",
    "WECHATPAY_API_V3_KEY",
    "WECHATPAY_PUBLIC_KEY",
    "WECHATPAY_PUBLIC_KEY_ID",
    "PAYMENT_NOTIFY_BASE_URL",
  ],
} as const satisfies Record<string, readonly string[]>;

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: url(/^postgres(ql)?:\/\//, "postgres:// or postgresql://"),
  REDIS_URL: url(/^rediss?:\/\//, "redis:// or rediss://"),
  /** Prefix of every Redis key, so several deployments (or test runs) can share one Redis. */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,64}$/, "letters, digits, _ : . - (at most 64)")
    .default("moonport"),
  /** Append-only bill journal (fsync'd before a bill counts as recorded); default <DATA_DIR>/journal. */
  BILLING_JOURNAL_DIR: z.string().optional(),
  /** "interval": a bill is recorded once written, fdatasync'd every BILLING_JOURNAL_FSYNC_MS; "always": each waits. */
  BILLING_JOURNAL_FSYNC: z.enum(["interval", "always"]).default("interval"),
  BILLING_JOURNAL_FSYNC_MS: z.coerce.number().int().min(1).max(10_000).default(100),
  /**
   * With Redis: how often an instance tops up the rate-limit headroom it takes ahead for busy organizations
   * (metering/limit-allowances.ts); 0 sends every admission to Redis.
   */
  GATEWAY_LIMIT_SYNC_MS: z.coerce.number().int().min(0).max(1000).default(20),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Shown on every page and e-mail; the server writes it into prerendered HTML and JSON as is (site tokens). */
  BRAND_NAME: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .refine((v) => !BRAND_UNSAFE_CHARS.test(v), "must not contain < > & \" ' ` \\ or control characters")
    .default("Moonport"),
  /** Public address of each edition. Both set → two-host mode; otherwise the edition follows the locale. */
  CN_SITE_URL: url(/^https?:\/\//, "http:// or https://"),
  GLOBAL_SITE_URL: url(/^https?:\/\//, "http:// or https://"),
  CN_API_BASE_URL: url(/^https?:\/\//, "http:// or https://"),
  GLOBAL_API_BASE_URL: url(/^https?:\/\//, "http:// or https://"),
  /** Where the zh-CN navbar's blog link leads: an external blog, or the site's own /blog when unset. */
  BLOG_URL: url(/^https?:\/\//, "http:// or https://"),
  /** JSON array of {src?, inline?, origin?} per edition (script tags; origins for the CSP); none by default. */
  CN_ANALYTICS: z.string().optional(),
  GLOBAL_ANALYTICS: z.string().optional(),
  /** Edition of organizations created where no request decides it (CLI, demo key). */
  DEFAULT_EDITION: z.enum(["cn", "global"]).default("cn"),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24 * 7),
  /** "dev" logs codes and keeps them in a dev outbox; "http" POSTs {phone, text} to SMS_HTTP_URL. */
  SMS_PROVIDER: z.enum(["dev", "http"]).default("dev"),
  SMS_HTTP_URL: url(/^https?:\/\//, "http:// or https://"),
  SMS_HTTP_TOKEN: z.string().optional(),
  TRUST_PROXY: bool,
  /** "dev" keeps e-mails in the development outbox (GET /api/dev/mail-outbox); "smtp" sends through SMTP_HOST. */
  MAIL_TRANSPORT: z.enum(["dev", "smtp"]).default("dev"),
  SMTP_HOST: z.string().optional(),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  /** true: TLS from the first byte (port 465); false: STARTTLS when the server offers it. */
  SMTP_SECURE: bool,
  SMTP_USER: z.string().optional(),
  SMTP_PASS: z.string().optional(),
  MAIL_FROM: z.string().default("Moonport <no-reply@localhost>"),
  /** Where contact-sales submissions are e-mailed (none: they are only stored, for the back-office queue). */
  SALES_EMAIL: z.email().optional(),
  /** Where console feedback is e-mailed (none: stored only). */
  SUPPORT_EMAIL: z.email().optional(),
  /** Contact-sales submissions one IP address may make per hour (429 beyond; the browser tests raise it). */
  CONTACT_SALES_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(5),
  /**
   * Development seams (the SMS outbox GET /api/dev/sms-outbox, the cash grant POST /api/dev/orgs/:orgId/grant).
   * Off unless set, refused in production, and even when on they answer loopback clients only (http/dev-seams.ts).
   */
  DEV_SEAMS: bool,
  /** Replaced by DEV_SEAMS; named here so an old deployment learns why its grant route vanished. */
  DEV_GRANTS: z.string().optional(),
  /** Per-organization quotas; projects share the organization's key quota. */
  /** Accounts created from one IP address per hour and per day (sign-up abuse). */
  SIGNUPS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(5),
  SIGNUPS_PER_IP_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(20),
  /** SMS codes one IP address may request per hour (the browser tests, all from loopback, raise it). */
  SMS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(30),
  MAX_ACTIVE_PROJECTS: z.coerce.number().int().min(1).max(100_000).default(20),
  MAX_API_KEYS: z.coerce.number().int().min(1).max(1_000_000).default(100),
  /**
   * Connection hygiene (slow-loris): time to receive a request's headers, the whole request (headers and body),
   * an idle keep-alive gap, and any silence in both directions; and open connections per client address.
   */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(120_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(72_000),
  HTTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(600_000),
  MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(0).max(1_000_000).default(256),
  /** Serve the built web app (apps/web/build/client). Off in server-only test runs. */
  SERVE_WEB: z
    .enum(["true", "false", "1", "0"])
    .default("true")
    .transform((v) => v === "true" || v === "1"),
  /** Simulator pace: pause per streamed token. Default 15 ms (0 when NODE_ENV=test). */
  SIMULATOR_DELAY_MS: z.coerce.number().int().min(0).max(10_000).optional(),
  /** Documentation tree ({en-US,zh-CN}/**\/*.mdx) the simulator answers from. */
  DOCS_DIR: z.string().optional(),
  /** Provider behind `$web_search`: the platform's own docs, or an HTTP search service. */
  WEB_SEARCH_PROVIDER: z.enum(["docs", "http"]).default("docs"),
  WEB_SEARCH_URL: url(/^https?:\/\//, "http:// or https://"),
  WEB_SEARCH_TOKEN: z.string().optional(),
  /**
   * Hosts (names or address literals, comma-separated) that tools may reach although they are private or local:
   * the fetch tool and MCP servers refuse loopback, private, link-local and metadata addresses otherwise
   * (tools/outbound.ts). For a private MCP server of the operator's own, and for tests.
   */
  OUTBOUND_ALLOW_HOSTS: z.string().default(""),
  /** Key (32 bytes, base64 or hex) encrypting MCP servers' credentials; generated into DATA_DIR/secrets when unset. */
  TOOL_SECRETS_KEY: z.string().optional(),
  /**
   * QuickJS sandboxes of function tools and the quickjs/code_runner tools (tools/sandbox-scheduler.ts): how many run
   * at once, how many of those one organization may hold, how many calls an organization and a user may have running
   * or waiting, and how many may wait in all. Each sandbox is a worker thread busy for up to 2 s of CPU.
   */
  TOOL_SANDBOX_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** Default: half of TOOL_SANDBOX_CONCURRENCY (at least 1), so another organization's call finds one free. */
  TOOL_SANDBOX_CONCURRENCY_PER_ORG: z.coerce.number().int().min(1).max(64).optional(),
  TOOL_SANDBOX_PENDING_PER_ORG: z.coerce.number().int().min(1).max(1000).default(8),
  TOOL_SANDBOX_PENDING_PER_USER: z.coerce.number().int().min(1).max(1000).default(4),
  TOOL_SANDBOX_QUEUE_MAX: z.coerce.number().int().min(1).max(10_000).default(100),
  /** Function-tool test runs one user may start per minute. */
  TOOL_TEST_RUNS_PER_USER_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(30),
  /** JSON file routing models to OpenAI-compatible upstreams (see README "Upstream models"). */
  UPSTREAMS_FILE: z.string().optional(),
  /**
   * Prometheus metrics on their own listener (observability/metrics-server.ts), off unless a port is given; on the
   * loopback address by default so only the machine (or a sidecar scraper) reaches it. METRICS_TOKEN adds a
   * bearer check for scrapers from elsewhere.
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  METRICS_TOKEN: z.string().min(16, "at least 16 characters").optional(),
  /**
   * OpenTelemetry tracing of /v1 requests and jobs, exported over OTLP/HTTP (JSON). Off unless an endpoint is set:
   * the traces endpoint as given, or the base endpoint + /v1/traces (the OTel conventions).
   */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url(/^https?:\/\//, "http:// or https://"),
  OTEL_EXPORTER_OTLP_ENDPOINT: url(/^https?:\/\//, "http:// or https://"),
  /** `name=value,name2=value2` sent with every export (collector credentials; never logged). */
  OTEL_EXPORTER_OTLP_HEADERS: z.string().optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default("moonport"),
  /** Share of traces kept (0–1) when the caller sent no sampled `traceparent`. */
  TRACE_SAMPLE_RATIO: z.coerce.number().min(0).max(1).default(1),
  /**
   * The built-in sandbox payment provider (test cards, fake QR checkouts): `allow` offers it, `off` does not.
   * Unset: allowed in development and tests, off in production, where it would turn fake payments into
   * spendable balance. Allowed in production, every sandbox payment is shown as a test payment.
   */
  PAYMENT_SANDBOX: z.enum(["allow", "off"]).optional(),
  /**
   * HMAC secret of the sandbox (signed checkout links, card tokens, notifications). Unset: generated once and
   * kept in DATA_DIR/secrets (PGlite) or in the database's settings (PostgreSQL, shared by every instance), so
   * bound test cards and queued notifications survive restarts (modules/payments/sandbox-secret.ts).
   */
  PAYMENT_SANDBOX_SECRET: z.string().min(16).optional(),
  /**
   * Which provider serves each pay type (modules/payments/providers/index.ts). The sandbox is the default for all
   * and serves only where it is allowed (PAYMENT_SANDBOX); a real adapter needs its credentials below (checked at
   * start). unionpay has no real adapter: only the sandbox serves it.
   */
  PAYMENT_CARD_PROVIDER: z.enum(["sandbox", "stripe"]).default("sandbox"),
  PAYMENT_ALIPAY_PROVIDER: z.enum(["sandbox", "alipay"]).default("sandbox"),
  PAYMENT_WXPAY_PROVIDER: z.enum(["sandbox", "wechatpay"]).default("sandbox"),
  /** Where providers send notifications: `<base>/webhooks/payments/<provider>` (Alipay and WeChat Pay need it per order). */
  PAYMENT_NOTIFY_BASE_URL: url(/^https?:\/\//, "http:// or https://"),
  /** Stripe: secret key (server), publishable key (browser tokenization), webhook signing secret (`whsec_…`). */
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Stripe API address; unset = api.stripe.com. Tests point it at a local fake. */
  STRIPE_API_URL: url(/^https?:\/\//, "http:// or https://"),
  /** Alipay: app id, our RSA2 private key (PKCS#8 PEM), Alipay's public key (PEM), the gateway. */
  ALIPAY_APP_ID: z.string().optional(),
  ALIPAY_PRIVATE_KEY: z.string().optional(),
  ALIPAY_PUBLIC_KEY: z.string().optional(),
  ALIPAY_GATEWAY: url(/^https?:\/\//, "http:// or https://").default("https://openapi.alipay.com/gateway.do"),
  /**
   * WeChat Pay API v3: app id, merchant id, merchant certificate serial and private key (PEM), the APIv3 key
   * (32 bytes, decrypts notifications), and the WeChat Pay public key (PEM) with its id (`PUB_KEY_ID_…`) that
   * verifies notification signatures ("WeChat Pay public key" mode, which replaces platform certificates).
   */
  WECHATPAY_APP_ID: z.string().optional(),
  WECHATPAY_MCH_ID: z.string().optional(),
  WECHATPAY_MCH_SERIAL: z.string().optional(),
  WECHATPAY_PRIVATE_KEY: z.string().optional(),
  WECHATPAY_API_V3_KEY: z.string().optional(),
  WECHATPAY_PUBLIC_KEY: z.string().optional(),
  WECHATPAY_PUBLIC_KEY_ID: z.string().optional(),
  /** WeChat Pay API address; unset = api.mch.weixin.qq.com. Tests point it at a local fake. */
  WECHATPAY_API_URL: url(/^https?:\/\//, "http:// or https://").default("https://api.mch.weixin.qq.com"),
  /** Our bank details shown for corporate transfers (cn, CNY). */
  TRANSFER_ACCOUNT_NAME: z.string().min(1).default("Moonport Technology Co., Ltd."),
  TRANSFER_BANK: z.string().min(1).default("Sandbox Bank, Beijing Branch"),
  TRANSFER_ACCOUNT_NUMBER: z.string().min(1).default("6222 0000 0000 0000"),
  /** …and for wire transfers on the global edition (USD): the bank line carries its SWIFT/BIC. */
  GLOBAL_TRANSFER_ACCOUNT_NAME: z.string().min(1).default("Moonport Inc."),
  GLOBAL_TRANSFER_BANK: z.string().min(1).default("Sandbox Bank N.A., New York (SWIFT SBOXUS33)"),
  GLOBAL_TRANSFER_ACCOUNT_NUMBER: z.string().min(1).default("000 111 222 333"),
  /**
   * Organization verification (modules/verification): `builtin` checks formats and checksums and queues company
   * applications for an operator; `http` asks an identity service at VERIFICATION_HTTP_URL (bearer
   * VERIFICATION_HTTP_TOKEN), see modules/verification/README.md.
   */
  VERIFICATION_PROVIDER: z.enum(["builtin", "http"]).default("builtin"),
  VERIFICATION_HTTP_URL: url(/^https?:\/\//, "http:// or https://"),
  VERIFICATION_HTTP_TOKEN: z.string().optional(),
  /**
   * Invoices (modules/invoices). The seller block of every invoice PDF; `INVOICE_AUTO_ISSUE=true` issues electronic
   * general VAT invoices at once with a generated number (default off: an operator issues each one).
   */
  INVOICE_SELLER_NAME: z.string().min(1).max(100).default("Moonport Technology Co., Ltd."),
  INVOICE_SELLER_TAX_ID: z.string().min(1).max(40).default("91110108MA01MP0N0C"),
  INVOICE_SELLER_ADDRESS: z.string().min(1).max(200).default("1 Sandbox Road, Haidian District, Beijing"),
  INVOICE_AUTO_ISSUE: bool,
  /**
   * GST rate of the global edition's order invoices, in percent with at most 2 decimals. Default 9: Singapore's
   * GST since 2024, where international LLM platforms of this kind usually invoice from; set the seller's own rate.
   */
  GST_RATE: z
    .string()
    .regex(/^\d{1,2}(\.\d{1,2})?$/, "a percentage such as 9 or 7.5")
    .default("9"),
  /** Optional sign-up voucher per new personal organization: amount in whole units (0 = none) and validity in days. */
  SIGNUP_VOUCHER_AMOUNT: z.coerce.number().int().min(0).max(1_000_000).default(0),
  SIGNUP_VOUCHER_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Files API storage (modules/files/store): `disk` under FILES_DIR, or an S3-compatible bucket for several instances. */
  FILES_STORE: z.enum(["disk", "s3"]).default("disk"),
  FILES_DIR: z.string().optional(),
  S3_ENDPOINT: url(/^https?:\/\//, "http:// or https://"),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => v !== "false" && v !== "0"),
  S3_PREFIX: z.string().default(""),
  /** Text extraction: worker threads at once per instance, and each one's time and heap limits. */
  /** Unset: one fewer than the cores (at least one), so extraction never takes the core the event loop runs on. */
  FILES_EXTRACT_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  FILES_EXTRACT_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(120_000),
  FILES_EXTRACT_MEMORY_MB: z.coerce.number().int().min(64).max(16_384).default(512),
});

export interface Config {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  billingJournalDir: string;
  billingJournalSync: { mode: "interval" | "always"; intervalMs: number };
  gatewayLimitSyncMs: number;
  logLevel: string;
  brandName: string;
  sites: { cn?: string; global?: string };
  /** External blog for the navbar link; unset: the site's own /blog. */
  blogUrl?: string;
  apiBaseUrls: { cn?: string; global?: string };
  analytics: { cn: AnalyticsTag[]; global: AnalyticsTag[] };
  defaultEdition: "cn" | "global";
  sessionTtlMs: number;
  signUpsPerIp: { perHour: number; perDay: number };
  smsPerIpPerHour: number;
  sms: { provider: "dev" | "http"; httpUrl?: string; httpToken?: string };
  mail: {
    transport: "dev" | "smtp";
    host?: string;
    port: number;
    secure: boolean;
    user?: string;
    pass?: string;
    from: string;
  };
  /** Contact sales and feedback (modules/support). */
  support: { salesEmail?: string; supportEmail?: string; contactSalesPerIpPerHour: number };
  trustProxy: boolean;
  serveWeb: boolean;
  /** Socket timeouts (ms) and the open-connection cap per client address (0 = none); see http/connections.ts. */
  http: {
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    idleTimeoutMs: number;
    maxConnectionsPerIp: number;
  };
  limits: { maxActiveProjects: number; maxApiKeys: number };
  /** SMS outbox and grant routes, loopback clients only (http/dev-seams.ts). */
  devSeams: boolean;
  simulatorDelayMs: number;
  docsDir: string;
  webSearch: { provider: "docs" | "http"; url?: string; token?: string };
  /** Hosts tools may reach although private (lower case, without brackets); see OUTBOUND_ALLOW_HOSTS. */
  outboundAllowHosts: string[];
  /** TOOL_SECRETS_KEY as given (tools/secret-box.ts parses it); undefined = the generated key in DATA_DIR. */
  toolSecretsKey?: string;
  /** Caps of the tool sandboxes (TOOL_SANDBOX_*) and the test-run rate limit. */
  toolSandboxes: {
    maxRunning: number;
    maxRunningPerOrg: number;
    maxPendingPerOrg: number;
    maxPendingPerUser: number;
    maxQueued: number;
    testRunsPerUserPerMinute: number;
  };
  verification: { provider: "builtin" | "http"; http?: { url: string; token: string } };
  /** Invoice PDFs' seller block, automatic issuing, and the global edition's GST rate in basis points. */
  invoices: { sellerName: string; sellerTaxId: string; sellerAddress: string; autoIssue: boolean; gstRateBp: number };
  /** Prometheus listener; `port` undefined = no metrics endpoint (observability/metrics-server.ts). */
  metrics: { port?: number; host: string; token?: string };
  /** OTLP/HTTP trace export; `endpoint` undefined = tracing off and no OpenTelemetry code loaded. */
  tracing: { endpoint?: string; headers: Record<string, string>; serviceName: string; sampleRatio: number };
  /** Model id (or "*" for every other model) → upstream. Models not listed run on the simulator. */
  upstreams: Record<string, UpstreamRoute>;
  payments: {
    /** Whether the sandbox provider serves (PAYMENT_SANDBOX); off, its routes and pay types do not exist. */
    sandboxAllowed: boolean;
    /** PAYMENT_SANDBOX_SECRET, or "" until buildApp fills in the kept one (payments/sandbox-secret.ts). */
    sandboxSecret: string;
    /** Provider per pay type; secrets live only here and in the adapters (never logged or returned). */
    providers: { card: "sandbox" | "stripe"; alipay: "sandbox" | "alipay"; wxpay: "sandbox" | "wechatpay" };
    notifyBaseUrl?: string;
    stripe?: { secretKey: string; publishableKey: string; webhookSecret: string; apiUrl?: string };
    alipay?: { appId: string; privateKey: string; alipayPublicKey: string; gateway: string };
    wechatpay?: {
      appId: string;
      mchId: string;
      mchSerial: string;
      privateKey: string;
      apiV3Key: string;
      publicKey: string;
      publicKeyId: string;
      apiUrl: string;
    };
    /** Our bank account for corporate transfers, per edition (each in its currency). */
    transfer: Record<"cn" | "global", { accountName: string; bank: string; accountNumber: string }>;
    signupVoucher: { amount: number; days: number };
  };
  files: FilesConfig;
}

export interface FilesConfig {
  store:
    | { kind: "disk"; dir: string }
    | {
        kind: "s3";
        endpoint?: string;
        region: string;
        bucket: string;
        accessKeyId?: string;
        secretAccessKey?: string;
        forcePathStyle: boolean;
        prefix: string;
      };
  /** Uploads are streamed here before they are checked and moved to the store (same disk as DATA_DIR). */
  tmpDir: string;
  extract: { workers: number; timeoutMs: number; memoryMb: number };
}

export interface UpstreamRoute {
  /** e.g. http://127.0.0.1:8000/v1 (the path before /chat/completions) */
  baseUrl: string;
  apiKey: string | undefined;
  /** Model name sent upstream; defaults to our model id. */
  upstreamModel: string | undefined;
  connectTimeoutMs: number;
  /** Time to the response headers (and between streamed chunks). */
  responseTimeoutMs: number;
  /** Keep-alive connections to this upstream at most: one per request in flight (streams hold theirs). */
  maxConnections: number;
}

const UpstreamEntrySchema = z
  .object({
    baseUrl: z.string().regex(/^https?:\/\//, "must start with http:// or https://"),
    apiKey: z.string().optional(),
    apiKeyEnv: z.string().optional(),
    upstreamModel: z.string().min(1).optional(),
    connectTimeoutMs: z.number().int().min(1).max(600_000).default(10_000),
    responseTimeoutMs: z.number().int().min(1).max(3_600_000).default(300_000),
    maxConnections: z.number().int().min(1).max(65_536).default(1024),
  })
  .strict();
const UpstreamsFileSchema = z.record(z.string(), UpstreamEntrySchema);

/** Reads and checks UPSTREAMS_FILE; an `apiKeyEnv` names the variable holding the upstream key. */
function readUpstreams(
  file: string | undefined,
  raw: Record<string, string | undefined>,
  problems: string[],
): Record<string, UpstreamRoute> {
  if (!file) return {};
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(path.resolve(file), "utf8"));
  } catch (e) {
    problems.push(`UPSTREAMS_FILE: cannot read ${file} as JSON (${(e as Error).message})`);
    return {};
  }
  const parsed = UpstreamsFileSchema.safeParse(json);
  if (!parsed.success) {
    for (const i of parsed.error.issues) problems.push(`UPSTREAMS_FILE: ${i.path.join(".")}: ${i.message}`);
    return {};
  }
  const out: Record<string, UpstreamRoute> = {};
  for (const [model, e] of Object.entries(parsed.data)) {
    let apiKey = e.apiKey;
    if (e.apiKeyEnv) {
      apiKey = raw[e.apiKeyEnv];
      if (!apiKey) problems.push(`UPSTREAMS_FILE: ${model}.apiKeyEnv names ${e.apiKeyEnv}, which is not set`);
    }
    out[model] = {
      baseUrl: e.baseUrl.replace(/\/+$/, ""),
      apiKey,
      upstreamModel: e.upstreamModel,
      connectTimeoutMs: e.connectTimeoutMs,
      responseTimeoutMs: e.responseTimeoutMs,
      maxConnections: e.maxConnections,
    };
  }
  return out;
}

export interface AnalyticsTag {
  src?: string;
  inline?: string;
  /** No tag: a host an inline tag loads from or reports to, allowed by the pages' Content-Security-Policy. */
  origin?: string;
}

const AnalyticsSchema = z.array(
  z.object({ src: z.string().url().optional(), inline: z.string().optional(), origin: z.string().url().optional() }),
);

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Validates a raw environment; throws EnvError listing every bad variable. */
export function buildConfig(raw: Record<string, string | undefined>): Config {
  const problems: string[] = [];
  const parsed = EnvSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join(".")}: ${issue.message}`);
  }
  const analytics = { cn: [] as AnalyticsTag[], global: [] as AnalyticsTag[] };
  for (const [key, edition] of [
    ["CN_ANALYTICS", "cn"],
    ["GLOBAL_ANALYTICS", "global"],
  ] as const) {
    const value = raw[key];
    if (!value) continue;
    try {
      const r = AnalyticsSchema.safeParse(JSON.parse(value));
      if (r.success) analytics[edition] = r.data;
      else problems.push(`${key}: must be a JSON array of {"src": url}, {"inline": script} or {"origin": url}`);
    } catch {
      problems.push(`${key}: not valid JSON`);
    }
  }
  if (parsed.success) {
    const e = parsed.data;
    if (e.NODE_ENV === "production" && e.SMS_PROVIDER === "dev") {
      problems.push("SMS_PROVIDER: production mode needs a real SMS provider (set SMS_PROVIDER=http and SMS_HTTP_URL)");
    }
    if ((e.TOOL_SANDBOX_CONCURRENCY_PER_ORG ?? 0) > e.TOOL_SANDBOX_CONCURRENCY) {
      problems.push("TOOL_SANDBOX_CONCURRENCY_PER_ORG: must not exceed TOOL_SANDBOX_CONCURRENCY");
    }
    if (e.NODE_ENV === "production" && e.DEV_SEAMS) {
      problems.push("DEV_SEAMS: development seams expose SMS codes and credit money; not allowed in production");
    }
    if (e.DEV_GRANTS !== undefined) {
      problems.push("DEV_GRANTS: replaced by DEV_SEAMS=true (which also enables the SMS outbox, loopback only)");
    }
    if (e.MAIL_TRANSPORT === "smtp" && !e.SMTP_HOST) problems.push("SMTP_HOST: required when MAIL_TRANSPORT=smtp");
    if (e.SMS_PROVIDER === "http" && !e.SMS_HTTP_URL) problems.push("SMS_HTTP_URL: required when SMS_PROVIDER=http");
    if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
      problems.push(
        "HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS (headers are part of the request)",
      );
    }
    if (e.OTEL_EXPORTER_OTLP_HEADERS !== undefined && otlpHeaders(e.OTEL_EXPORTER_OTLP_HEADERS) === null) {
      problems.push("OTEL_EXPORTER_OTLP_HEADERS: expected name=value pairs separated by commas");
    }
    if (e.WEB_SEARCH_PROVIDER === "http" && !e.WEB_SEARCH_URL) {
      problems.push("WEB_SEARCH_URL: required when WEB_SEARCH_PROVIDER=http");
    }
    // A real payment provider without its credentials would fail on the first payment; refuse to start instead.
    const need = (on: boolean, provider: string, keys: readonly (keyof typeof e)[]) => {
      const missing = on ? keys.filter((k) => !e[k]) : [];
      if (missing.length) problems.push(`${missing.join(", ")}: required when ${provider}`);
    };
    need(e.VERIFICATION_PROVIDER === "http", "VERIFICATION_PROVIDER=http", [
      "VERIFICATION_HTTP_URL",
      "VERIFICATION_HTTP_TOKEN",
    ]);
    need(e.PAYMENT_CARD_PROVIDER === "stripe", "PAYMENT_CARD_PROVIDER=stripe", PAYMENT_PROVIDER_VARIABLES.stripe);
    need(e.PAYMENT_ALIPAY_PROVIDER === "alipay", "PAYMENT_ALIPAY_PROVIDER=alipay", PAYMENT_PROVIDER_VARIABLES.alipay);
    need(
      e.PAYMENT_WXPAY_PROVIDER === "wechatpay",
      "PAYMENT_WXPAY_PROVIDER=wechatpay",
      PAYMENT_PROVIDER_VARIABLES.wechatpay,
    );
    if (e.WECHATPAY_API_V3_KEY && Buffer.byteLength(e.WECHATPAY_API_V3_KEY) !== 32) {
      problems.push("WECHATPAY_API_V3_KEY: must be 32 bytes");
    }
    if (e.FILES_STORE === "s3" && !e.S3_BUCKET) problems.push("S3_BUCKET: required when FILES_STORE=s3");
    if (e.FILES_STORE === "s3" && !e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY) {
      problems.push("S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither (neither: the SDK's default chain)");
    }
  }
  const upstreams = readUpstreams(parsed.success ? parsed.data.UPSTREAMS_FILE : undefined, raw, problems);
  if (problems.length || !parsed.success) throw new EnvError(problems);
  const e = parsed.data;
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    billingJournalDir: path.resolve(e.BILLING_JOURNAL_DIR || path.join(e.DATA_DIR, "journal")),
    billingJournalSync: { mode: e.BILLING_JOURNAL_FSYNC, intervalMs: e.BILLING_JOURNAL_FSYNC_MS },
    gatewayLimitSyncMs: e.GATEWAY_LIMIT_SYNC_MS,
    logLevel: e.LOG_LEVEL,
    brandName: e.BRAND_NAME,
    sites: { cn: e.CN_SITE_URL, global: e.GLOBAL_SITE_URL },
    blogUrl: e.BLOG_URL,
    apiBaseUrls: { cn: e.CN_API_BASE_URL, global: e.GLOBAL_API_BASE_URL },
    analytics,
    defaultEdition: e.DEFAULT_EDITION,
    sessionTtlMs: e.SESSION_TTL_HOURS * 3600_000,
    signUpsPerIp: { perHour: e.SIGNUPS_PER_IP_PER_HOUR, perDay: e.SIGNUPS_PER_IP_PER_DAY },
    smsPerIpPerHour: e.SMS_PER_IP_PER_HOUR,
    sms: { provider: e.SMS_PROVIDER, httpUrl: e.SMS_HTTP_URL, httpToken: e.SMS_HTTP_TOKEN },
    mail: {
      transport: e.MAIL_TRANSPORT,
      host: e.SMTP_HOST,
      port: e.SMTP_PORT,
      secure: e.SMTP_SECURE,
      user: e.SMTP_USER || undefined,
      pass: e.SMTP_PASS || undefined,
      from: e.MAIL_FROM,
    },
    support: {
      salesEmail: e.SALES_EMAIL,
      supportEmail: e.SUPPORT_EMAIL,
      contactSalesPerIpPerHour: e.CONTACT_SALES_PER_IP_PER_HOUR,
    },
    trustProxy: e.TRUST_PROXY,
    serveWeb: e.SERVE_WEB,
    http: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      idleTimeoutMs: e.HTTP_IDLE_TIMEOUT_MS,
      maxConnectionsPerIp: e.MAX_CONNECTIONS_PER_IP,
    },
    limits: { maxActiveProjects: e.MAX_ACTIVE_PROJECTS, maxApiKeys: e.MAX_API_KEYS },
    devSeams: e.DEV_SEAMS,
    simulatorDelayMs: e.SIMULATOR_DELAY_MS ?? (e.NODE_ENV === "test" ? 0 : 15),
    docsDir: path.resolve(e.DOCS_DIR ?? DEFAULT_DOCS_DIR),
    webSearch: { provider: e.WEB_SEARCH_PROVIDER, url: e.WEB_SEARCH_URL, token: e.WEB_SEARCH_TOKEN },
    outboundAllowHosts: e.OUTBOUND_ALLOW_HOSTS.split(",")
      .map((h) =>
        h
          .trim()
          .toLowerCase()
          .replace(/^\[|\]$/g, ""),
      )
      .filter(Boolean),
    toolSecretsKey: e.TOOL_SECRETS_KEY,
    toolSandboxes: {
      maxRunning: e.TOOL_SANDBOX_CONCURRENCY,
      maxRunningPerOrg: e.TOOL_SANDBOX_CONCURRENCY_PER_ORG ?? Math.max(1, Math.floor(e.TOOL_SANDBOX_CONCURRENCY / 2)),
      maxPendingPerOrg: e.TOOL_SANDBOX_PENDING_PER_ORG,
      maxPendingPerUser: e.TOOL_SANDBOX_PENDING_PER_USER,
      maxQueued: e.TOOL_SANDBOX_QUEUE_MAX,
      testRunsPerUserPerMinute: e.TOOL_TEST_RUNS_PER_USER_PER_MINUTE,
    },
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN },
    tracing: {
      endpoint:
        e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
        (e.OTEL_EXPORTER_OTLP_ENDPOINT ? `${e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces` : undefined),
      headers: otlpHeaders(e.OTEL_EXPORTER_OTLP_HEADERS ?? "") ?? {},
      serviceName: e.OTEL_SERVICE_NAME,
      sampleRatio: e.TRACE_SAMPLE_RATIO,
    },
    upstreams,
    invoices: {
      sellerName: e.INVOICE_SELLER_NAME,
      sellerTaxId: e.INVOICE_SELLER_TAX_ID,
      sellerAddress: e.INVOICE_SELLER_ADDRESS,
      autoIssue: e.INVOICE_AUTO_ISSUE,
      gstRateBp: Math.round(Number(e.GST_RATE) * 100),
    },
    verification: {
      provider: e.VERIFICATION_PROVIDER,
      http:
        e.VERIFICATION_PROVIDER === "http"
          ? { url: e.VERIFICATION_HTTP_URL!, token: e.VERIFICATION_HTTP_TOKEN! }
          : undefined,
    },
    payments: {
      sandboxAllowed: e.PAYMENT_SANDBOX ? e.PAYMENT_SANDBOX === "allow" : e.NODE_ENV !== "production",
      sandboxSecret: e.PAYMENT_SANDBOX_SECRET ?? "",
      providers: { card: e.PAYMENT_CARD_PROVIDER, alipay: e.PAYMENT_ALIPAY_PROVIDER, wxpay: e.PAYMENT_WXPAY_PROVIDER },
      notifyBaseUrl: e.PAYMENT_NOTIFY_BASE_URL?.replace(/\/+$/, ""),
      stripe:
        e.PAYMENT_CARD_PROVIDER === "stripe"
          ? {
              secretKey: e.STRIPE_SECRET_KEY!,
              publishableKey: e.STRIPE_PUBLISHABLE_KEY!,
              webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
              apiUrl: e.STRIPE_API_URL,
            }
          : undefined,
      alipay:
        e.PAYMENT_ALIPAY_PROVIDER === "alipay"
          ? {
              appId: e.ALIPAY_APP_ID!,
              privateKey: e.ALIPAY_PRIVATE_KEY!,
              alipayPublicKey: e.ALIPAY_PUBLIC_KEY!,
              gateway: e.ALIPAY_GATEWAY!,
            }
          : undefined,
      wechatpay:
        e.PAYMENT_WXPAY_PROVIDER === "wechatpay"
          ? {
              appId: e.WECHATPAY_APP_ID!,
              mchId: e.WECHATPAY_MCH_ID!,
              mchSerial: e.WECHATPAY_MCH_SERIAL!,
              privateKey: e.WECHATPAY_PRIVATE_KEY!,
              apiV3Key: e.WECHATPAY_API_V3_KEY!,
              publicKey: e.WECHATPAY_PUBLIC_KEY!,
              publicKeyId: e.WECHATPAY_PUBLIC_KEY_ID!,
              apiUrl: e.WECHATPAY_API_URL!.replace(/\/+$/, ""),
            }
          : undefined,
      transfer: {
        cn: {
          accountName: e.TRANSFER_ACCOUNT_NAME,
          bank: e.TRANSFER_BANK,
          accountNumber: e.TRANSFER_ACCOUNT_NUMBER,
        },
        global: {
          accountName: e.GLOBAL_TRANSFER_ACCOUNT_NAME,
          bank: e.GLOBAL_TRANSFER_BANK,
          accountNumber: e.GLOBAL_TRANSFER_ACCOUNT_NUMBER,
        },
      },
      signupVoucher: { amount: e.SIGNUP_VOUCHER_AMOUNT, days: e.SIGNUP_VOUCHER_DAYS },
    },
    files: {
      store:
        e.FILES_STORE === "s3"
          ? {
              kind: "s3",
              endpoint: e.S3_ENDPOINT,
              region: e.S3_REGION,
              bucket: e.S3_BUCKET ?? "",
              accessKeyId: e.S3_ACCESS_KEY_ID || undefined,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY || undefined,
              forcePathStyle: e.S3_FORCE_PATH_STYLE,
              prefix: e.S3_PREFIX,
            }
          : { kind: "disk", dir: path.resolve(e.FILES_DIR || path.join(e.DATA_DIR, "files")) },
      tmpDir: path.resolve(e.DATA_DIR, "tmp", "uploads"),
      extract: {
        workers: e.FILES_EXTRACT_WORKERS ?? Math.max(1, os.availableParallelism() - 1),
        timeoutMs: e.FILES_EXTRACT_TIMEOUT_MS,
        memoryMb: e.FILES_EXTRACT_MEMORY_MB,
      },
    },
  };
}

/** `a=b,c=d` (values percent-decoded, as the OTel spec has it) → headers; null when malformed. */
function otlpHeaders(raw: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const part of raw.split(",")) {
    if (!part.trim()) continue;
    const eq = part.indexOf("=");
    if (eq <= 0) return null;
    const name = part.slice(0, eq).trim();
    if (!/^[\w-]+$/.test(name)) return null;
    try {
      out[name.toLowerCase()] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return null;
    }
  }
  return out;
}

export function readEnv(): Config {
  return buildConfig(process.env);
}
