export * from "./client.ts";
export * from "./copy.ts";
export * from "./ids.ts";
export * from "./lock.ts";
export * as schema from "./schema.ts";
