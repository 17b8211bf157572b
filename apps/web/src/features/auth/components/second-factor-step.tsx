import type { User } from "@supabase/auth-js";
import { ShieldCheck } from "lucide-react";

import { CardPage } from "@/components/card-page";
import { Button } from "@/components/ui/button";
import { SecondStepForm } from "@/features/auth/components/second-step-form";
import { secondStepsOf } from "@/features/auth/utils/second-steps";

/**
 * The second step of signing in, for a member with an authenticator app or a security key: shown
 * instead of any member screen until this session has proven one of them (ADR 0022, ADR 0025).
 */
export function SecondFactorStep({ user, onSignOut }: { user: User; onSignOut: () => void }) {
  const { app } = secondStepsOf(user);
  return (
    <CardPage
      icon={ShieldCheck}
      title="Two-step verification"
      description={
        app
          ? "Enter the 6-digit code from your authenticator app to open your memories."
          : "Use your security key to open your memories."
      }
    >
      <SecondStepForm user={user} prominent />
      <p className="text-center text-sm text-muted-foreground">
        Lost your phone or key? Use one of the recovery codes you saved, or ask an owner to turn two-step verification off for you
        from Members.
      </p>
      <Button type="button" variant="link" onClick={onSignOut}>
        Sign out
      </Button>
    </CardPage>
  );
}
