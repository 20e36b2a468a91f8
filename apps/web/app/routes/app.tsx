import "../../src/styles/mantine-app.css";
import { ModalsProvider } from "@mantine/modals";
import { Notifications } from "@mantine/notifications";
import { Outlet } from "react-router";

/**
 * Parent of every client-only page (console, sign-in, setup, invitations): it adds the styles of the Mantine
 * components that public pages do not use, so docs and home pages load less CSS before first paint, and the
 * notification and modal providers, which only these pages use.
 */
export default function AppPages() {
  return (
    <ModalsProvider>
      <Notifications position="top-center" />
      <Outlet />
    </ModalsProvider>
  );
}
