/**
 * Import boundaries, checked by `npm run check:boundaries` (part of `npm run lint`, so CI fails on a violation).
 * Rules name folders by pattern, not by today's list, so a new feature, module or engine is covered without
 * touching this file. scripts/README.md explains each rule and the probes that prove it fires.
 *
 * KNOWN_VIOLATIONS below are today's exceptions, each with the reason and the work that removes it. Delete an
 * entry once its import is gone (`npm run check:boundaries` lists every known violation it still sees).
 */

/** Route files: a module's `routes.ts` or `<name>-routes.ts`, the gateway's `/v1` routes. */
const ROUTE_FILE = "/[a-z0-9-]*routes\\.ts$";

const WEB = "apps/web/src/features";

/**
 * Imports that break a rule today, none in any branch's scope yet: the signed-in user (`auth/api/get-me.ts`),
 * sign-out and the SMS sender are app-wide pieces several features use; they belong in src/lib (or the console
 * kit), a follow-up.
 */
const KNOWN_VIOLATIONS = [
  // Follow-up (no branch yet): displayName belongs in src/lib.
  [`${WEB}/profile/components/profile-page.tsx`, `${WEB}/console/components/user-menu.tsx`],
  // Follow-up (no branch yet): the SMS sender is shared by sign-up, sign-in and phone binding.
  [`${WEB}/profile/components/bind-phone-modal.tsx`, `${WEB}/auth/api/send-sms.ts`],
  // Follow-up (no branch yet): the `me` query and sign-out are app-wide session state → src/lib.
  [`${WEB}/profile/api/update-account.ts`, `${WEB}/auth/api/get-me.ts`],
  [`${WEB}/orgs/api/set-current-org.ts`, `${WEB}/auth/api/get-me.ts`],
  [`${WEB}/console/components/console-shell.tsx`, `${WEB}/auth/api/get-me.ts`],
  [`${WEB}/console/components/user-menu.tsx`, `${WEB}/auth/api/sign-out.ts`],
  // Follow-up (no branch yet): the organization switcher's request belongs with the console shell or src/lib.
  [`${WEB}/console/components/org-switcher.tsx`, `${WEB}/orgs/api/set-current-org.ts`],
].map(([from, to, rule = "web-feature-isolation"]) => ({
  type: "dependency",
  from,
  to,
  rule: { name: rule, severity: "error" },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "web-feature-isolation",
      comment:
        "A web feature (apps/web/src/features/<name>/) does not import another feature. Shared pieces live in " +
        "apps/web/src/components (console kit included) or apps/web/src/lib; pages compose features in app/routes.",
      severity: "error",
      from: { path: "^apps/web/src/features/([^/]+)/" },
      to: { path: "^apps/web/src/features/([^/]+)/", pathNot: "^apps/web/src/features/$1/" },
    },
    {
      name: "no-cycles",
      comment:
        "No import cycles, type-only imports included: a cycle makes load order matter and ties its files into one " +
        "unit that cannot be read, tested or moved alone. A module's index.ts only re-exports its own files, so a " +
        "cycle that passes through one is not counted (files of two modules may use each other through them).",
      severity: "error",
      from: {},
      to: { circular: true, viaNot: "^apps/server/src/modules/[^/]+/index\\.ts$" },
    },
    {
      name: "server-leaves",
      comment:
        "lib/, chat/ and engines/ are leaves: the playground, /v1 and jobs all build on them, so they import no " +
        "module, metering, /v1, http, job, CLI, mail or tool code, nor the app's composition (app.ts, context.ts); " +
        "they take what they need as arguments (BaseContext, Config).",
      severity: "error",
      from: { path: "^apps/server/src/(lib|chat|engines)/" },
      to: {
        path: [
          "^apps/server/src/(modules|metering|v1|gateway|http|jobs|cli|mail|tools)/",
          "^apps/server/src/(app|context|cli|main|startup|db)\\.ts$",
        ],
      },
    },
    {
      name: "module-entry-via-index",
      comment:
        "Code outside a module (apps/server/src/modules/<name>/) imports it only through its index.ts, which names " +
        "what the module offers; its other files are its own to change. Route files are registered by app.ts.",
      severity: "error",
      from: { path: "^apps/server/src/", pathNot: ["^apps/server/src/modules/", "\\.test\\.ts$"] },
      to: {
        path: "^apps/server/src/modules/[^/]+/",
        pathNot: ["^apps/server/src/modules/[^/]+/index\\.ts$", ROUTE_FILE],
      },
    },
    {
      name: "module-entry-via-index",
      comment: "A module imports another module only through that module's index.ts (see above).",
      severity: "error",
      from: { path: "^apps/server/src/modules/([^/]+)/", pathNot: "\\.test\\.ts$" },
      to: {
        path: "^apps/server/src/modules/[^/]+/",
        pathNot: ["^apps/server/src/modules/$1/", "^apps/server/src/modules/[^/]+/index\\.ts$", ROUTE_FILE],
      },
    },
    {
      name: "domain-not-route-files",
      comment:
        "Route files are the outermost layer: only app.ts (which registers them) and other route files may " +
        "import one. Domain functions, the gateway's non-route files, jobs, the CLI and lib/ never do.",
      severity: "error",
      from: {
        path: "^apps/server/src/",
        pathNot: [ROUTE_FILE, "^apps/server/src/app\\.ts$", "\\.test\\.ts$"],
      },
      to: { path: "^apps/server/src/[a-z0-9/-]*routes\\.ts$" },
    },
    {
      name: "modules-not-http-layer",
      comment:
        "Domain code in apps/server/src/modules/<name>/ takes plain options objects and throws AppError " +
        "(lib/app-error.ts); the request, reply, route types, locale and error mapper of http/ are for route " +
        "files. (http/session.ts is the session store that sign-up and sign-in open sessions with.)",
      severity: "error",
      from: { path: "^apps/server/src/modules/[^/]+/", pathNot: [ROUTE_FILE, "\\.test\\.ts$"] },
      to: { path: "^apps/server/src/http/(route|errors|locale|web)\\.ts$" },
    },
    {
      name: "contracts-stand-alone",
      comment:
        "packages/contracts is browser-safe and shared by server and web: it imports neither an app nor the " +
        "database package.",
      severity: "error",
      from: { path: "^packages/contracts/" },
      to: { path: "^(apps/|packages/db/)" },
    },
    {
      name: "contracts-no-node-builtins",
      comment: "packages/contracts runs in the browser too.",
      severity: "error",
      from: { path: "^packages/contracts/src/", pathNot: "\\.test\\.ts$" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "db-not-apps",
      comment: "packages/db knows nothing of the apps built on it.",
      severity: "error",
      from: { path: "^packages/db/" },
      to: { path: "^apps/" },
    },
    {
      name: "web-not-server-or-db",
      comment: "The web app reaches the server over HTTP only, with shapes from packages/contracts.",
      severity: "error",
      from: { path: "^apps/web/" },
      to: { path: "^(apps/server/|packages/db/)" },
    },
    {
      name: "money-tables-via-billing",
      comment:
        "Only modules/billing imports the money tables (packages/db/src/money-schema.ts: balances, vouchers, " +
        "ledger; docs/decisions/0012-money-tables.md). Everything else — other modules, metering, /v1, jobs, the " +
        "CLI and the tests' fixtures — reads and changes money through modules/billing/index.ts, so the billing " +
        "core stays the one writer and Σ ledger = balances cannot be broken from outside.",
      severity: "error",
      from: { pathNot: ["^apps/server/src/modules/billing/", "^packages/db/"] },
      to: { path: "^packages/db/src/money-schema\\.ts$" },
    },
    {
      name: "server-src-not-tests",
      comment: "Production code never imports test helpers.",
      severity: "error",
      from: { path: "^apps/server/src/", pathNot: "\\.test\\.ts$" },
      to: { path: "(^apps/server/test/|\\.test\\.ts$)" },
    },
  ],
  options: {
    knownViolations: KNOWN_VIOLATIONS,
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|build|\\.react-router|migrations)/" },
    // Type-only imports couple folders as much as value imports do.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      // The workspace packages (@moonport/contracts, @moonport/db) are reached through their package.json
      // "exports"; without this they would not resolve and rules on packages/ would never match.
      exportsFields: ["exports"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
      conditionNames: ["import", "require", "node", "default"],
    },
    // Vite virtual modules (virtual:docs/…) and asset queries resolve at build time only.
    moduleSystems: ["es6", "cjs"],
  },
};
