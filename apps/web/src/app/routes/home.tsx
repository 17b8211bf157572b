import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { useAuth } from "@/lib/auth-context";
import { userDisplayName } from "@/lib/user-name";

/** The memory list. The header is final; the list itself comes with the memories feature. */
export function HomeRoute() {
  const { user, signOut } = useAuth();

  return (
    <div className="min-h-svh bg-muted">
      <header className="border-b bg-background">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-4 py-4">
          <div>
            <h1 className="text-xl font-semibold">Memory Box</h1>
            <p className="text-sm text-muted-foreground">Welcome back, {userDisplayName(user)}!</p>
          </div>
          <Button variant="outline" onClick={() => void signOut()}>
            Sign Out
          </Button>
        </div>
      </header>
      <main className="mx-auto max-w-6xl p-4">
        <Card>
          <CardContent className="text-muted-foreground">Your memories will appear here.</CardContent>
        </Card>
      </main>
    </div>
  );
}
