import {
  IconBuildingCommunity,
  IconCpu,
  IconHistory,
  IconInbox,
  IconLayoutDashboard,
  IconPuzzle,
  IconTicket,
  IconUsers,
} from "@tabler/icons-react";
import { paths } from "../../lib/paths.ts";

/** The back office's sidebar (same shape as the console's CONSOLE_NAV; the admin layout passes it to the shell). */
export const ADMIN_NAV = [
  {
    label: "admin:nav.section",
    entries: [
      { to: paths.admin, label: "admin:nav.dashboard", icon: IconLayoutDashboard, exact: true },
      { to: paths.adminOrganizations, label: "admin:nav.organizations", icon: IconBuildingCommunity },
      { to: paths.adminUsers, label: "admin:nav.users", icon: IconUsers },
      { to: paths.adminQueues(), label: "admin:nav.queues", icon: IconInbox },
      { to: paths.adminCodes, label: "admin:nav.codes", icon: IconTicket },
      { to: paths.adminRiddles, label: "admin:nav.riddles", icon: IconPuzzle },
      { to: paths.adminCatalog, label: "admin:nav.catalog", icon: IconCpu },
      { to: paths.adminAudit, label: "admin:nav.audit", icon: IconHistory },
    ],
  },
];
