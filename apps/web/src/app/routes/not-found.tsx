import { useEffect } from "react";
import { Link, useLocation } from "react-router";

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
      <div className="text-center">
        <h1 className="mb-4 text-4xl font-bold">404</h1>
        <p className="mb-4 text-xl text-foreground/80">Oops! Page not found</p>
        <Button asChild variant="link">
          <Link to={paths.home}>Return to Home</Link>
        </Button>
      </div>
    </main>
  );
}
