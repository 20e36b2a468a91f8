// autocannon ships no type declarations and @types/autocannon is not installed; bench/gateway.ts only reads the
// documented result fields, so an untyped module is enough for `tsc` over bench/.
declare module "autocannon";
