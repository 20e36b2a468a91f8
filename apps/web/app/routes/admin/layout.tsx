import { Center, Loader } from "@mantine/core";
import { Outlet } from "react-router";
import type { ConsoleContext } from "../../../src/components/console-kit/console-user.ts";
import { ErrorPage } from "../../../src/components/error-page.tsx";
import { ADMIN_NAV } from "../../../src/features/admin/nav.ts";
import { useMe } from "../../../src/features/auth/api/get-me.ts";
import { ConsoleShell } from "../../../src/features/console/components/console-shell.tsx";
import { paths } from "../../../src/lib/paths.ts";

/**
 * /admin/**: the back office, for the operator only. Anyone else signed in sees the not-found page (the API
 * answers them as if the routes did not exist); a signed-out visitor goes to sign-in like the console.
 */
export default function AdminLayout() {
  const me = useMe();
  if (me.isPending) {
    return (
      <Center h="100vh">
        <Loader type="dots" />
      </Center>
    );
  }
  if (me.data && me.data.role !== "operator") return <ErrorPage kind="notFound" />;
  return (
    <ConsoleShell nav={ADMIN_NAV} orgSwitcher={false} home={paths.admin}>
      {(user) => <Outlet context={{ me: user } satisfies ConsoleContext} />}
    </ConsoleShell>
  );
}
