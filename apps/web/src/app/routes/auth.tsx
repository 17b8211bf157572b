import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

/** Sign-in screen. Placeholder until the invitation/sign-in form lands. */
export function AuthRoute() {
  return (
    <main className="flex min-h-svh items-center justify-center bg-muted p-4">
      <Card className="w-full max-w-sm">
        <CardHeader className="text-center">
          <CardTitle>
            <h1 className="text-2xl">Welcome to Memory Box</h1>
          </CardTitle>
          <CardDescription>Your personal memory collection for two</CardDescription>
        </CardHeader>
      </Card>
    </main>
  );
}
