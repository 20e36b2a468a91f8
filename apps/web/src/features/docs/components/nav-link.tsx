import { Link } from "react-router";
import classes from "../docs.module.css";

/** A link of the docs' top bar; its own file because both the navbar and the lazily loaded mobile menu show it. */
export interface NavItem {
  key: string;
  href: string;
  label: string;
  external?: boolean;
  router?: boolean;
}

export function NavLink({ item, active }: { item: NavItem; active: boolean }) {
  const cls = `${classes.navLink} ${active ? classes.navLinkActive : ""}`;
  if (item.router) {
    return (
      <Link className={cls} to={item.href} aria-current={active ? "page" : undefined}>
        {item.label}
      </Link>
    );
  }
  return (
    <a
      className={cls}
      href={item.href}
      target={item.external ? "_blank" : undefined}
      rel={item.external ? "noopener noreferrer" : undefined}
    >
      {item.label}
    </a>
  );
}
