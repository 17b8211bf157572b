import type { ReactNode } from "react";
import { Link } from "react-router";
import { MapPin, Plus, Settings } from "lucide-react";

import { Button } from "@/components/ui/button";
import { paths } from "@/config/paths";
import { useIntl } from "@/lib/intl";

/**
 * Home's page: the header with the greeting, "Add Memory", "Settings" and "Sign Out", then its
 * content. Without state, so the first screen's script draws it too (ADR 0039).
 */
export function HomeFrame({
  userName,
  onAddMemory,
  onSignOut,
  children,
  dialogs,
}: {
  userName: string;
  onAddMemory?: () => void;
  onSignOut?: () => void;
  children: ReactNode;
  /** After the content: the dialogs the header opens. */
  dialogs?: ReactNode;
}) {
  const intl = useIntl();
  return (
    <div className="min-h-svh bg-muted">
      <header className="border-b bg-background">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-4 py-4">
          <div>
            <h1 className="text-xl font-semibold">{intl.formatMessage({ id: "app.name" })}</h1>
            <p className="text-sm text-muted-foreground">
              {intl.formatMessage({ id: "home.header.welcome" }, { name: userName })}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button onClick={onAddMemory}>
              <Plus aria-hidden="true" />
              {intl.formatMessage({ id: "home.header.addMemory" })}
            </Button>
            <Button asChild variant="outline">
              <Link to={paths.places}>
                <MapPin aria-hidden="true" />
                {intl.formatMessage({ id: "home.header.places" })}
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to={paths.settings}>
                <Settings aria-hidden="true" />
                {intl.formatMessage({ id: "home.header.settings" })}
              </Link>
            </Button>
            <Button variant="outline" onClick={onSignOut}>
              {intl.formatMessage({ id: "home.header.signOut" })}
            </Button>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl p-4">{children}</main>
      {dialogs}
    </div>
  );
}
