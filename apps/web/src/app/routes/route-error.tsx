import { useEffect, useLayoutEffect, useState } from "react";
import { useRouteError } from "react-router";
import { TriangleAlert } from "lucide-react";

import { EmptyState } from "@/components/empty-state";
import { PageSpinner } from "@/components/page-spinner";
import { Button } from "@/components/ui/button";
import { paths } from "@/config/paths";
import { endFirstScreen } from "@/lib/first-screen";
import { canReloadForStaleChunk, isStaleChunkError, reloadForStaleChunk } from "@/lib/stale-chunk";
import { useIntl } from "@/lib/intl";

/**
 * What shows when a screen fails to load or to render. A screen's chunk gone after a deploy is
 * fixed by a reload, tried once without asking; anything else gets a page with a way out.
 * Bundled up front: when chunks fail to load, this page must not be one of them.
 */
export function RouteErrorPage() {
  const intl = useIntl();
  const error = useRouteError();
  // Decided on the first render, so a later one while the page reloads does not flash the message.
  const [reloading] = useState(() => isStaleChunkError(error) && canReloadForStaleChunk());

  // Never left behind a painted first screen (ADR 0026).
  useLayoutEffect(endFirstScreen, []);

  useEffect(() => {
    if (reloading) reloadForStaleChunk();
    else console.error("A screen could not be shown:", error);
  }, [reloading, error]);

  if (reloading) return <PageSpinner />;

  return (
    <main className="flex min-h-svh items-center justify-center bg-muted p-4">
      <EmptyState
        icon={TriangleAlert}
        heading="h1"
        title={intl.formatMessage({ id: "error.title" })}
        description={intl.formatMessage({ id: "error.description" })}
        className="w-full max-w-md"
      >
        <div className="flex flex-wrap justify-center gap-2">
          <Button onClick={() => window.location.reload()}>{intl.formatMessage({ id: "error.reload" })}</Button>
          {/* A full page load rather than a client-side one: the home screen's code may be just as stale. */}
          <Button asChild variant="outline">
            <a href={paths.home}>{intl.formatMessage({ id: "nav.returnHome" })}</a>
          </Button>
        </div>
      </EmptyState>
    </main>
  );
}
