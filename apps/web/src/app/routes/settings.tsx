import type { WebMessageId } from "@memory-box/messages/web";
import { useEffect, useRef } from "react";
import { NavLink, Outlet, useLocation } from "react-router";

import { paths } from "@/config/paths";
import { BackToMemories } from "@/features/memories/components/back-to-memories";
import { cn } from "@/lib/utils";
import { useIntl } from "@/lib/intl";

const sections: { to: string; label: WebMessageId; end: boolean }[] = [
  { to: paths.settings, label: "settings.nav.account", end: true },
  { to: paths.members, label: "settings.nav.members", end: false },
  { to: paths.notifications, label: "settings.nav.notifications", end: false },
  { to: paths.apps, label: "settings.nav.apps", end: false },
  { to: paths.frames, label: "settings.nav.frames", end: false },
];

/** The account area: a way back to the memories, the sections as links, and the open section. */
export function SettingsLayout() {
  const intl = useIntl();
  const { pathname } = useLocation();
  const sectionList = useRef<HTMLUListElement>(null);
  // On a phone the sections scroll sideways: the open one is brought into view (and again when the window narrows).
  useEffect(() => {
    const showOpen = () => {
      // The list alone is scrolled (scrollIntoView would scroll the page to the list too).
      const list = sectionList.current;
      const open = list?.querySelector<HTMLElement>("[aria-current=page]");
      if (!list || !open) return;
      const shown = list.getBoundingClientRect();
      const item = open.getBoundingClientRect();
      if (item.left < shown.left) list.scrollLeft -= shown.left - item.left;
      else if (item.right > shown.right) list.scrollLeft += item.right - shown.right;
    };
    showOpen();
    window.addEventListener("resize", showOpen);
    return () => window.removeEventListener("resize", showOpen);
  }, [pathname]);
  return (
    <div className="min-h-svh bg-muted">
      <header className="border-b bg-background">
        <div className="mx-auto flex max-w-3xl flex-col gap-3 px-4 py-4">
          <div className="-ms-3">
            <BackToMemories />
          </div>
          <h1 className="text-xl font-semibold">{intl.formatMessage({ id: "settings.title" })}</h1>
          <nav aria-label={intl.formatMessage({ id: "settings.title" })}>
            <ul
              ref={sectionList}
              className="inline-flex h-9 max-w-full items-center overflow-x-auto rounded-lg bg-muted p-[3px] text-muted-foreground"
            >
              {sections.map((section) => (
                <li key={section.to} className="h-full">
                  <NavLink
                    to={section.to}
                    end={section.end}
                    className={({ isActive }) =>
                      cn(
                        "inline-flex h-full items-center rounded-md px-3 text-sm font-medium transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none",
                        isActive
                          ? "bg-background text-foreground shadow-sm"
                          : "text-foreground dark:text-muted-foreground dark:hover:text-foreground",
                      )
                    }
                  >
                    {intl.formatMessage({ id: section.label })}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </header>
      <main className="mx-auto flex max-w-3xl flex-col gap-6 p-4">
        <Outlet />
      </main>
    </div>
  );
}
