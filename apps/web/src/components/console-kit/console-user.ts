import type { MeWithOrgs } from "@moonport/contracts";
import { useOutletContext } from "react-router";

export interface ConsoleContext {
  me: MeWithOrgs;
}

/** The signed-in user (with organizations) inside any console screen. */
export function useConsoleUser(): MeWithOrgs {
  return useOutletContext<ConsoleContext>().me;
}
