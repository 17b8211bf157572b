import { useEffect } from "react";
import { Link, useLocation } from "react-router";
import { Compass } from "lucide-react";

import { EmptyState } from "@/components/empty-state";
import { Button } from "@/components/ui/button";
import { paths } from "@/config/paths";

export function NotFoundRoute() {
  const location = useLocation();

  // Logged so a broken link (old bookmark, typo in a shared URL) shows up in the console and error reports.
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", location.pathname);
  }, [location.pathname]);

  return (
    <main className="flex min-h-svh items-center justify-center bg-muted p-4">
      <EmptyState icon={Compass} heading="h1" title="404" description="Oops! Page not found" className="w-full max-w-md">
        <Button asChild>
          <Link to={paths.home}>Return to Home</Link>
        </Button>
      </EmptyState>
    </main>
  );
}
