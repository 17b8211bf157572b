import { useId, useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { verifyEmailCode, type CodePurpose } from "@/features/auth/api/email-links";
import type { SendOutcome } from "@/features/auth/components/email-request-form";
import { useIntl } from "@/lib/intl";

export interface EmailCodeFormProps {
  email: string;
  purpose: CodePurpose;
  /** Sends the e-mail again. */
  resend: (email: string) => Promise<SendOutcome>;
  onBack: () => void;
  /** The way back's words; "Back to sign in" on the auth screen. */
  backLabel?: string;
  /** After a right code; on the auth screen the session itself moves the visitor on. */
  onVerified?: () => void;
}

const codeLength = 6;

/**
 * The six-digit code from a confirmation or sign-in e-mail, typed instead of opening its link
 * (handy when the mail arrives on another device). A right code signs in; the auth screen then
 * moves on by itself.
 */
export function EmailCodeForm({ email, purpose, resend, onBack, backLabel, onVerified }: EmailCodeFormProps) {
  const id = useId();
  const intl = useIntl();
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState<"verify" | "resend">();
  const [problem, setProblem] = useState<string>();
  const [resent, setResent] = useState(false);
  const digits = code.replace(/\D/g, "");

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || digits.length !== codeLength) return;
    setBusy("verify");
    setProblem(undefined);
    try {
      const { error } = await verifyEmailCode(email, digits, purpose);
      if (error) setProblem(intl.formatMessage({ id: "auth.code.wrong" }));
      else onVerified?.();
    } catch {
      setProblem(intl.formatMessage({ id: "auth.code.checkFailed" }));
    } finally {
      setBusy(undefined);
    }
  }

  async function handleResend() {
    setBusy("resend");
    setProblem(undefined);
    setResent(false);
    try {
      const outcome = await resend(email);
      if (outcome.sent) setResent(true);
      else setProblem(outcome.problem);
    } catch {
      setProblem(intl.formatMessage({ id: "auth.emailNotSent" }));
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <form className="flex flex-col gap-4" onSubmit={(event) => void handleSubmit(event)}>
      <div className="space-y-1">
        <h2 className="text-lg font-semibold">{intl.formatMessage({ id: "auth.code.enter" })}</h2>
        <p className="text-sm text-muted-foreground">
          {intl.formatMessage({ id: "auth.code.sentTo" }, { length: codeLength, email })}
        </p>
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-code`}>{intl.formatMessage({ id: "auth.code.label" })}</Label>
        <Input
          id={`${id}-code`}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9 ]*"
          maxLength={codeLength + 2}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          className="text-center font-mono text-lg tracking-[0.4em]"
        />
      </div>
      {problem && (
        <p id={`${id}-problem`} role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      )}
      {resent && (
        <p role="status" className="text-sm">
          {intl.formatMessage({ id: "auth.code.resent" })}
        </p>
      )}
      <Button type="submit" className="w-full" disabled={busy !== undefined || digits.length !== codeLength}>
        {busy === "verify" ? intl.formatMessage({ id: "auth.code.checking" }) : intl.formatMessage({ id: "auth.code.continue" })}
      </Button>
      <div className="flex flex-wrap justify-center gap-2">
        <Button type="button" variant="link" onClick={() => void handleResend()} disabled={busy !== undefined}>
          {busy === "resend" ? intl.formatMessage({ id: "auth.sending" }) : intl.formatMessage({ id: "auth.code.resend" })}
        </Button>
        <Button type="button" variant="link" onClick={onBack}>
          {backLabel ?? intl.formatMessage({ id: "auth.backToSignIn" })}
        </Button>
      </div>
    </form>
  );
}
