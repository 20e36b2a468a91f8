import { CURRENCY_EDITION, EDITION_TIME_ZONE, type MeWithOrgs } from "@moonport/contracts";
import { useConsoleUser } from "./console-user.ts";

export interface CurrentOrg {
  id: string;
  role: "admin" | "member";
  currency: "CNY" | "USD";
  name: string;
  /** The edition's zone: bills, budgets and consumption periods are days and months there, not in the browser's. */
  timeZone: string;
}

/** The organization the console currently shows (the user's persisted choice, else their first one). */
export function currentOrg(me: MeWithOrgs): CurrentOrg | null {
  const o = me.organizations.find((x) => x.id === me.currentOrganizationId) ?? me.organizations[0];
  return o
    ? {
        id: o.id,
        role: o.role,
        currency: o.currency,
        name: o.name,
        timeZone: EDITION_TIME_ZONE[CURRENCY_EDITION[o.currency]],
      }
    : null;
}

export function useCurrentOrg(): CurrentOrg | null {
  return currentOrg(useConsoleUser());
}
