import type { OfficialToolList } from "@moonport/contracts";
import { FORMULAS, formulaTools } from "./official/catalog.ts";

/** The official tools the playground's picker offers, in catalog order, with their OpenAI definitions. */
export function listOfficialTools(): OfficialToolList {
  return { items: FORMULAS.map((f) => ({ uri: f.uri, billed: f.billed === true, tools: formulaTools(f) })) };
}
