import { Outlet } from "react-router";
import type { ConsoleContext } from "../../../src/components/console-kit/console-user.ts";
import { ConsoleShell } from "../../../src/features/console/components/console-shell.tsx";

/** /console/**: client-only; every screen renders inside the shell and reads the user with useConsoleUser(). */
export default function ConsoleLayout() {
  return <ConsoleShell>{(me) => <Outlet context={{ me } satisfies ConsoleContext} />}</ConsoleShell>;
}
