import { EDITIONS, type Edition, formatMoney, formatMoneyExact, parseMoney } from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { and, asc, eq } from "drizzle-orm";
import { getOrganizationBalance, grantBalance } from "../modules/billing/index.ts";
import { createApiKey } from "../modules/keys/index.ts";
import { createOrganization } from "../modules/orgs/index.ts";
import type { CliCommand } from "./command.ts";

const DEMO_USERNAME = "demo";
const DEFAULT_BALANCE = "100";
/** Tier 1 (200 RPM): the README's samples and a newcomer's first scripts do not hit 429 at tier 0's 3 RPM. */
const DEFAULT_TIER = 1;

function parseArgs(args: string[]): { balance?: bigint; edition?: Edition; tier?: number } | string {
  const out: { balance?: bigint; edition?: Edition; tier?: number } = {};
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i]!.split("=", 2) as [string, string | undefined];
    const value = inline ?? args[++i];
    if (flag === "--balance") {
      try {
        out.balance = parseMoney(value ?? "");
      } catch {
        return `--balance needs a decimal amount with at most 9 decimals, got ${JSON.stringify(value ?? "")}`;
      }
      if (out.balance < 0n) return "--balance cannot be negative";
    } else if (flag === "--tier") {
      const n = Number(value);
      if (!/^[0-5]$/.test(value ?? "") || !Number.isInteger(n))
        return `--tier must be 0 to 5, got ${JSON.stringify(value ?? "")}`;
      out.tier = n;
    } else if (flag === "--edition") {
      if (!EDITIONS.includes(value as Edition))
        return `--edition must be cn or global, got ${JSON.stringify(value ?? "")}`;
      out.edition = value as Edition;
    } else {
      return `unknown option ${flag}`;
    }
  }
  return out;
}

export const demoKeyCommand: CliCommand = {
  name: "demo-key",
  summary: "Create (or reuse) a demo user, organization and project, credit it, print a new API key (last line)",
  async run({ config, db, services, args, print }) {
    const parsed = parseArgs(args);
    if (typeof parsed === "string") {
      print(`${parsed}\nUsage: npm run moonport -- demo-key [--balance N] [--edition cn|global] [--tier 0-5]`);
      return 2;
    }
    const edition = parsed.edition ?? config.defaultEdition;

    const [existingUser] = await db.select().from(schema.users).where(eq(schema.users.username, DEMO_USERNAME));
    let userId = existingUser?.id;
    if (!userId) {
      userId = newId("user");
      await db.insert(schema.users).values({ id: userId, username: DEMO_USERNAME });
      print(`Created demo user "${DEMO_USERNAME}" (${userId}); it has no password and cannot sign in.`);
    }

    const [existingOrg] = await db
      .select({ id: schema.organizations.id, currency: schema.organizations.currency })
      .from(schema.organizations)
      .where(and(eq(schema.organizations.createdBy, userId), eq(schema.organizations.edition, edition)))
      .orderBy(asc(schema.organizations.createdAt))
      .limit(1);
    let orgId: string;
    let projectId: string;
    let created = false;
    if (existingOrg) {
      orgId = existingOrg.id;
      const [project] = await db
        .select({ id: schema.projects.id })
        .from(schema.projects)
        .where(and(eq(schema.projects.orgId, orgId), eq(schema.projects.isDefault, true)));
      if (!project) throw new Error(`demo organization ${orgId} has no default project`);
      projectId = project.id;
      print(`Reusing demo organization ${orgId} (${edition}), project ${projectId}.`);
    } else {
      ({ orgId, projectId } = await db.transaction((tx) =>
        createOrganization({
          db: tx,
          name: "Demo organization",
          edition,
          creatorUserId: userId,
          creatorNickname: DEMO_USERNAME,
          defaultProjectName: "demo",
        }),
      ));
      created = true;
      print(`Created demo organization ${orgId} (${edition}), project ${projectId}.`);
    }

    const amount = parsed.balance ?? (created ? parseMoney(DEFAULT_BALANCE) : 0n);
    const org = await getOrganizationBalance({ db, orgId });
    let cash = org!.cash;
    if (amount > 0n) {
      // Through the billing core, which tells running gateways after the commit.
      ({ cashBalance: cash } = await grantBalance({
        ctx: services,
        orgId,
        amount,
        note: `operator grant: demo-key --balance ${formatMoneyExact(amount)}`,
        createdBy: "cli:demo-key",
      }));
      print(`Granted ${formatMoney(amount, org!.currency)} (ledger kind "grant").`);
    }
    print(`Cash balance: ${formatMoney(cash, org!.currency, 4)}`);
    const tier = parsed.tier ?? DEFAULT_TIER;
    // The tier is an operator override (not a recharge), recorded as an operator action.
    await db.transaction(async (tx) => {
      await tx.update(schema.organizations).set({ tierOverride: tier }).where(eq(schema.organizations.id, orgId));
      await tx.insert(schema.operatorActions).values({
        id: newId("opa"),
        actor: "cli:demo-key",
        action: "org.set_tier",
        target: orgId,
        details: { tier },
      });
    });
    await services.keyEvents.invalidate({ orgId });
    print(`Tier set to ${tier} (operator override).`);
    const key = await createApiKey({
      db,
      orgId,
      projectId,
      name: `demo ${new Date().toISOString().slice(0, 19)}Z`,
      createdBy: userId,
    });
    print(`New API key ${key.id} (${key.mask}); it is shown once:`);
    print(key.key);
    return 0;
  },
};
