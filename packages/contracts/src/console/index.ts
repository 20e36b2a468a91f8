export * from "./admin.ts";
export * from "./common.ts";
export * from "./keys.ts";
export * from "./members.ts";
export * from "./orgs.ts";
export * from "./projects.ts";
export * from "./usage.ts";
