import type { User } from "@supabase/auth-js";
import { ShieldCheck } from "lucide-react";

import { CardPage } from "@/components/card-page";
import { Button } from "@/components/ui/button";
import { SecondStepForm } from "@/features/auth/components/second-step-form";
import { secondStepsOf } from "@/features/auth/utils/second-steps";
import { useIntl } from "@/lib/intl";

/**
 * The second step of signing in, for a member with an authenticator app or a security key: shown
 * instead of any member screen until this session has proven one of them (ADR 0022, ADR 0025).
 */
export function SecondFactorStep({ user, onSignOut }: { user: User; onSignOut: () => void }) {
  const intl = useIntl();
  const { app } = secondStepsOf(user);
  return (
    <CardPage
      icon={ShieldCheck}
      title={intl.formatMessage({ id: "secondStep.title" })}
      description={
        app ? intl.formatMessage({ id: "secondStep.appDescription" }) : intl.formatMessage({ id: "secondStep.keyDescription" })
      }
    >
      <SecondStepForm user={user} prominent />
      <p className="text-center text-sm text-muted-foreground">{intl.formatMessage({ id: "secondStep.lost" })}</p>
      <Button type="button" variant="link" onClick={onSignOut}>
        {intl.formatMessage({ id: "secondStep.signOut" })}
      </Button>
    </CardPage>
  );
}
