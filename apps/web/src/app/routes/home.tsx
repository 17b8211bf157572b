import { Card, CardContent } from "@/components/ui/card";

/** The memory list. Placeholder; the auth guard and the list come with their features. */
export function HomeRoute() {
  return (
    <div className="min-h-svh bg-muted">
      <header className="border-b bg-background">
        <div className="mx-auto max-w-3xl px-4 py-4">
          <h1 className="text-xl font-semibold">Memory Box</h1>
        </div>
      </header>
      <main className="mx-auto max-w-3xl p-4">
        <Card>
          <CardContent className="text-muted-foreground">Your memories will appear here.</CardContent>
        </Card>
      </main>
    </div>
  );
}
