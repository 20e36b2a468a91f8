declare module "virtual:docs/page-map" {
  const map: import("./page-map.ts").PageMap;
  export default map;
}

declare module "virtual:docs/content" {
  type MdxModule = import("./components/docs-layout.tsx").MdxModule;
  /** Modules available synchronously (prerendering). */
  export const loaded: Record<string, MdxModule>;
  /** One lazy chunk per page (browser). */
  export const loaders: Record<string, () => Promise<MdxModule>>;
}
