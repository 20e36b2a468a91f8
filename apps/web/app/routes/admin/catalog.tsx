import { CatalogScreen } from "../../../src/features/admin/components/catalog-screen.tsx";

export default function AdminCatalogRoute() {
  return <CatalogScreen />;
}
