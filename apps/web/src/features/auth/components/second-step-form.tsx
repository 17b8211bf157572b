import { useState, type FormEvent } from "react";
import { ErrorCode } from "@memory-box/contract";
import { isAuthError, type User } from "@supabase/auth-js";

import { Button } from "@/components/ui/button";
import { webauthnProblem } from "@/features/auth/api/passkeys";
import { verifyFactor, verifySecurityKey } from "@/features/auth/api/second-factor";
import { OneTimeCodeField } from "@/features/auth/components/one-time-code-field";
import { RecoveryCodeForm } from "@/features/auth/components/recovery-code-form";
import { secondStepsOf } from "@/features/auth/utils/second-steps";
import { activeIntl, useIntl } from "@/lib/intl";

/** What a refused code means, in words. */
function problemText(error: unknown): string {
  const intl = activeIntl();
  if (isAuthError(error) && error.code === ErrorCode.mfa_verification_failed)
    // A right code already used once is refused too: its own (English) words say to wait for the next one.
    return intl.formatMessage({ id: error.message.includes("already used") ? "secondStep.codeUsed" : "secondStep.codeWrong" });
  if (isAuthError(error) && error.code === ErrorCode.mfa_factor_locked)
    return intl.formatMessage({ id: "recovery.secondStep.locked" });
  if (isAuthError(error) && error.code === ErrorCode.mfa_challenge_expired)
    return intl.formatMessage({ id: "secondStep.tooMany" });
  return intl.formatMessage({ id: "auth.code.checkFailed" });
}

/**
 * Proving the second step in this session: the authenticator app's code, or a touch of the
 * security key, whichever the member has, or one of the recovery codes (ADR 0042) for a member
 * without them. On success the session is aal2 (the auth client announces MFA_CHALLENGE_VERIFIED,
 * or SIGNED_IN for a recovery code) and `onVerified` runs.
 */
export function SecondStepForm({
  user,
  onVerified,
  prominent = false,
}: {
  user: User;
  onVerified?: () => void;
  /** The sign-in's own step: a large code field that takes focus. */
  prominent?: boolean;
}) {
  const intl = useIntl();
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [recovery, setRecovery] = useState(false);
  const digits = code.replace(/\D/g, "");
  const { app, key } = secondStepsOf(user);

  async function verify(run: () => Promise<{ error: unknown }>, explain: (error: unknown) => string) {
    setBusy(true);
    setProblem(undefined);
    try {
      const { error } = await run();
      if (!error) {
        onVerified?.();
        return;
      }
      setProblem(explain(error));
      setCode("");
    } catch (error) {
      setProblem(explain(error));
    } finally {
      setBusy(false);
    }
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || digits.length !== 6 || !app) return;
    void verify(() => verifyFactor(app.id, digits), problemText);
  }

  if (recovery)
    return (
      <div className="flex flex-col gap-2">
        <RecoveryCodeForm onVerified={onVerified} />
        <Button type="button" variant="link" onClick={() => setRecovery(false)}>
          {intl.formatMessage({ id: app ? "recovery.secondStep.useApp" : "recovery.secondStep.useKey" })}
        </Button>
      </div>
    );

  return (
    <div className="flex flex-col gap-2">
      <form className="flex flex-col gap-4" onSubmit={handleSubmit}>
        {app && (
          <>
            <OneTimeCodeField
              label={intl.formatMessage({ id: "secondStep.codeLabel" })}
              value={code}
              onChange={(value) => {
                setCode(value);
                setProblem(undefined);
              }}
              problem={problem}
              autoFocus
              prominent={prominent}
            />
            <Button type="submit" className="w-full" disabled={busy || digits.length !== 6}>
              {busy ? intl.formatMessage({ id: "auth.code.checking" }) : intl.formatMessage({ id: "secondStep.verify" })}
            </Button>
          </>
        )}
        {key && (
          <>
            <Button
              type="button"
              variant={app ? "outline" : "default"}
              className="w-full"
              disabled={busy}
              onClick={() =>
                void verify(
                  () => verifySecurityKey(key.id),
                  (error) => webauthnProblem(error, "verify"),
                )
              }
            >
              {busy && !app
                ? intl.formatMessage({ id: "secondStep.waitingKey" })
                : intl.formatMessage({ id: "secondStep.useKey" })}
            </Button>
            {!app && problem && (
              <p className="text-sm text-destructive" role="alert">
                {problem}
              </p>
            )}
          </>
        )}
      </form>
      <Button type="button" variant="link" disabled={busy} onClick={() => setRecovery(true)}>
        {intl.formatMessage({ id: "recovery.secondStep.useCode" })}
      </Button>
    </div>
  );
}
