import { useEffect } from "react";
import { Link, useLocation } from "react-router";
import { Compass } from "lucide-react";

import { EmptyState } from "@/components/empty-state";
import { Button } from "@/components/ui/button";
import { paths } from "@/config/paths";
import { useIntl } from "@/lib/intl";

export function NotFoundRoute() {
  const intl = useIntl();
  const location = useLocation();

  // Logged so a broken link (old bookmark, typo in a shared URL) shows up in the console and error reports.
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", location.pathname);
  }, [location.pathname]);

  return (
    <main className="flex min-h-svh items-center justify-center bg-muted p-4">
      <EmptyState
        icon={Compass}
        heading="h1"
        title={intl.formatMessage({ id: "notFound.title" })}
        description={intl.formatMessage({ id: "notFound.description" })}
        className="w-full max-w-md"
      >
        <Button asChild>
          <Link to={paths.home}>{intl.formatMessage({ id: "nav.returnHome" })}</Link>
        </Button>
      </EmptyState>
    </main>
  );
}
