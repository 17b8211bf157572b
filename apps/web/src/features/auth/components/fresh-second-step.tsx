import { useState } from "react";
import { ErrorCode } from "@memory-box/contract";
import { isAuthError } from "@supabase/auth-js";

import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { SecondStepForm } from "@/features/auth/components/second-step-form";
import { secondStepsOf } from "@/features/auth/utils/second-steps";
import { useAuth } from "@/lib/auth-context";
import { useIntl } from "@/lib/intl";

interface Pending {
  attempt: () => Promise<unknown>;
  onOutcome: (error: unknown) => void;
}

/**
 * Removing a second step or a passkey needs the second step proven in the last ten minutes (ADR
 * 0025); changing the password or the address, signing other devices out and connecting an
 * account or a wallet need it proven in this session once the member has one. `run` tries the
 * change; when the server asks for that proof (`insufficient_aal`), `dialog` asks for a code or
 * the key, then the change runs once more. `onOutcome` gets the final error, or null.
 */
export function useFreshSecondStep(purpose: "remove" | "change" = "remove") {
  const { user } = useAuth();
  const intl = useIntl();
  const [pending, setPending] = useState<Pending>();
  const steps = secondStepsOf(user);

  async function run(attempt: () => Promise<unknown>, onOutcome: (error: unknown) => void): Promise<void> {
    const error = await errorOf(attempt);
    if (isAuthError(error) && error.code === ErrorCode.insufficient_aal && (steps.app || steps.key)) {
      setPending({ attempt, onOutcome });
      return;
    }
    onOutcome(error);
  }

  async function retry(): Promise<void> {
    if (!pending) return;
    setPending(undefined);
    pending.onOutcome(await errorOf(pending.attempt));
  }

  const dialog = (
    <Dialog open={pending !== undefined} onOpenChange={(open) => !open && setPending(undefined)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{intl.formatMessage({ id: "fresh.title" })}</DialogTitle>
          <DialogDescription>
            {intl.formatMessage({
              id:
                purpose === "remove"
                  ? steps.app
                    ? "fresh.removeApp"
                    : "fresh.removeKey"
                  : steps.app
                    ? "fresh.changeApp"
                    : "fresh.changeKey",
            })}
          </DialogDescription>
        </DialogHeader>
        {user && <SecondStepForm user={user} onVerified={() => void retry()} />}
      </DialogContent>
    </Dialog>
  );

  return { run, dialog };
}

/** The error an attempt ended with (thrown or answered as `{ error }`), or null. */
async function errorOf(attempt: () => Promise<unknown>): Promise<unknown> {
  try {
    const result = await attempt();
    return (result as { error?: unknown } | undefined)?.error ?? null;
  } catch (error) {
    return error;
  }
}
