import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { CredentialsForm } from "@/features/auth/components/credentials-form";
import { useSignIn } from "@/features/auth/hooks/use-sign-in";
import { passwordRule, useSignUp } from "@/features/auth/hooks/use-sign-up";

/** The sign-in / sign-up card. Where a successful sign-in leads is the auth route's business. */
export function AuthCard() {
  const signIn = useSignIn();
  const signUp = useSignUp();

  return (
    <Card className="w-full max-w-md">
      <CardHeader className="text-center">
        <CardTitle>
          <h1 className="text-2xl">Welcome to Memory Box</h1>
        </CardTitle>
        <CardDescription>Your personal memory collection for two</CardDescription>
      </CardHeader>
      <CardContent>
        <Tabs defaultValue="sign-in">
          <TabsList className="w-full">
            <TabsTrigger value="sign-in">Sign In</TabsTrigger>
            <TabsTrigger value="sign-up">Sign Up</TabsTrigger>
          </TabsList>
          <TabsContent value="sign-in" className="pt-2">
            <CredentialsForm
              passwordPlaceholder="Enter your password"
              passwordAutoComplete="current-password"
              submitLabel="Sign In"
              busyLabel="Signing in..."
              busy={signIn.isPending}
              onSubmit={signIn.run}
            />
          </TabsContent>
          <TabsContent value="sign-up" className="pt-2">
            <CredentialsForm
              passwordPlaceholder="Create a password"
              passwordHint={passwordRule}
              passwordProblems={signUp.passwordProblems}
              onPasswordChange={signUp.clearPasswordProblems}
              passwordAutoComplete="new-password"
              submitLabel="Sign Up"
              busyLabel="Creating account..."
              busy={signUp.isPending}
              onSubmit={signUp.run}
            />
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}
