import { CachesScreen } from "../../../src/features/caches/components/caches-screen.tsx";

export default function ContextCachingRoute() {
  return <CachesScreen />;
}
