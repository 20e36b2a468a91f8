declare module "virtual:docs/page-map" {
  const map: import("./page-map.ts").PageMap;
  export default map;
}
