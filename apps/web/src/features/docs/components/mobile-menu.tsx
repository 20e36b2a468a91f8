import { Drawer } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { IconX } from "./icons.tsx";
import { type NavItem, NavLink } from "./nav-link.tsx";
import { Sidebar } from "./sidebar.tsx";

/** The navbar links and the sidebar in a drawer, for narrow screens. */
export default function MobileMenu({
  opened,
  onClose,
  items,
  activeKey,
}: {
  opened: boolean;
  onClose: () => void;
  items: NavItem[];
  activeKey: string | undefined;
}) {
  const { t } = useTranslation("docs");
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      size="85%"
      padding="md"
      title={t("brand")}
      closeButtonProps={{ "aria-label": t("nav.closeMenu"), icon: <IconX /> }}
    >
      <nav style={{ display: "flex", flexDirection: "column", gap: 4, marginBottom: 16 }}>
        {items.map((item) => (
          <NavLink key={item.key} item={item} active={item.key === activeKey} />
        ))}
      </nav>
      <Sidebar />
    </Drawer>
  );
}
