import "../../src/styles/mantine-app.css";
import { Outlet } from "react-router";

/**
 * Parent of every client-only page (console, sign-in, setup, invitations): it adds the styles of the Mantine
 * components that public pages do not use, so docs and home pages load less CSS before first paint.
 */
export default function AppPages() {
  return <Outlet />;
}
