import { useState, type FormEvent } from "react";
import { ErrorCode } from "@memory-box/contract";
import { isAuthError, type User } from "@supabase/auth-js";

import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { webauthnProblem } from "@/features/auth/api/passkeys";
import { verifyFactor, verifySecurityKey } from "@/features/auth/api/second-factor";
import { OneTimeCodeField } from "@/features/auth/components/one-time-code-field";

/** What a refused code means, in words. */
function problemText(error: unknown): string {
  if (isAuthError(error) && error.code === ErrorCode.mfa_verification_failed)
    // A right code already used once is refused too: its own words say to wait for the next one.
    return error.message.includes("already used")
      ? "That code was already used. Wait for the next code in your app."
      : "That code is not right. Use the newest code your authenticator app shows.";
  if (isAuthError(error) && error.code === ErrorCode.mfa_challenge_expired)
    return "Too many wrong codes. Wait for a new code in your app and try again.";
  return "The code could not be checked just now. Please try again.";
}

/**
 * The second step of signing in, for a member with an authenticator app or a security key: shown
 * instead of any member screen until this session has proven one of them (ADR 0022, ADR 0025).
 */
export function SecondFactorStep({ user, onSignOut }: { user: User; onSignOut: () => void }) {
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const digits = code.replace(/\D/g, "");
  const verified = user.factors?.filter((candidate) => candidate.status === "verified") ?? [];
  const factor = verified.find((candidate) => candidate.factor_type === "totp");
  const key = verified.find((candidate) => candidate.factor_type === "webauthn");

  async function verifyWithKey() {
    if (busy || !key) return;
    setBusy(true);
    setProblem(undefined);
    try {
      const { error } = await verifySecurityKey(key.id);
      if (error) setProblem(webauthnProblem(error, "verify"));
    } catch (error) {
      setProblem(webauthnProblem(error, "verify"));
    } finally {
      setBusy(false);
    }
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || digits.length !== 6 || !factor) return;
    setBusy(true);
    setProblem(undefined);
    try {
      const { error } = await verifyFactor(factor.id, digits);
      if (error) {
        setProblem(problemText(error));
        setCode("");
      }
    } catch (error) {
      setProblem(problemText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="flex min-h-svh items-center justify-center bg-muted p-4">
      <Card className="w-full max-w-md">
        <CardHeader className="text-center">
          <CardTitle>
            <h1 className="text-2xl">Two-step verification</h1>
          </CardTitle>
          <CardDescription>
            {factor
              ? "Enter the 6-digit code from your authenticator app to open your memories."
              : "Use your security key to open your memories."}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form className="flex flex-col gap-4" onSubmit={(event) => void handleSubmit(event)}>
            {factor && (
              <>
                <OneTimeCodeField
                  label="Authentication code"
                  value={code}
                  onChange={(value) => {
                    setCode(value);
                    setProblem(undefined);
                  }}
                  problem={problem}
                  autoFocus
                  prominent
                />
                <Button type="submit" className="w-full" disabled={busy || digits.length !== 6}>
                  {busy ? "Checking..." : "Verify"}
                </Button>
              </>
            )}
            {key && (
              <>
                <Button
                  type="button"
                  variant={factor ? "outline" : "default"}
                  className="w-full"
                  disabled={busy}
                  onClick={() => void verifyWithKey()}
                >
                  {busy && !factor ? "Waiting for your key..." : "Use security key"}
                </Button>
                {!factor && problem && (
                  <p className="text-sm text-destructive" role="alert">
                    {problem}
                  </p>
                )}
              </>
            )}
            <p className="text-center text-sm text-muted-foreground">
              Lost your phone or key? An owner can turn two-step verification off for you from Members.
            </p>
            <Button type="button" variant="link" onClick={onSignOut}>
              Sign out
            </Button>
          </form>
        </CardContent>
      </Card>
    </main>
  );
}
