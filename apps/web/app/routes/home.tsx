import { HomePage } from "../../src/features/home/components/home-page.tsx";

export default function HomeRoute() {
  return <HomePage />;
}
