import "./zod-setup.ts";

export * from "./auth.ts";
export * from "./catalog.ts";
export * from "./chat-wire.ts";
export * from "./console/index.ts";
export * from "./edition.ts";
export * from "./errors.ts";
export * from "./locale.ts";
export * from "./money.ts";
export * from "./site-tokens.ts";
export * from "./tiers.ts";
export * from "./validation.ts";
