import { Link, useParams } from "react-router";

import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { paths } from "@/config/paths";

/** One memory. Placeholder that shows which memory was asked for until the detail view lands. */
export function MemoryDetailRoute() {
  const { id } = useParams();

  return (
    <main className="flex min-h-svh items-center justify-center bg-muted p-4">
      <Card className="w-full max-w-md">
        <CardHeader>
          <CardTitle>
            <h1 className="text-xl">Memory</h1>
          </CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col items-start gap-4">
          <p className="text-muted-foreground">
            Memory id: <span className="font-mono text-foreground">{id}</span>
          </p>
          <Button asChild variant="outline">
            <Link to={paths.home}>Back to memories</Link>
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}
