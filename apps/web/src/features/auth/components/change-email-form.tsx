import { useId, useState, type FormEvent } from "react";
import { ErrorCode } from "@memory-box/contract";
import { isAuthError } from "@supabase/auth-js";

import { FieldProblem } from "@/components/field-problem";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { requestEmailChange } from "@/features/auth/api/email-links";
import { EmailCodeForm } from "@/features/auth/components/email-code-form";
import { useFreshSecondStep } from "@/features/auth/components/fresh-second-step";
import type { SendOutcome } from "@/features/auth/components/email-request-form";
import { useIntl, type AppIntl } from "@/lib/intl";

export interface ChangeEmailFormProps {
  currentEmail: string;
  /** Where the confirmation link brings the member back to. */
  returnPath: string;
  onChanged: (email: string) => void;
}

/** Why a new address was refused, in words; the server's own message otherwise. */
function refusalText(intl: AppIntl, error: unknown, email: string): string {
  if (isAuthError(error)) {
    if (error.code === ErrorCode.email_not_invited) return intl.formatMessage({ id: "changeEmail.notInvited" }, { email });
    if (error.code === ErrorCode.email_exists) return intl.formatMessage({ id: "changeEmail.exists" }, { email });
    // The server's "Unable to validate email address: invalid format" is the field's rule, said as the form says it.
    if (error.code === ErrorCode.validation_failed) return intl.formatMessage({ id: "changeEmail.invalid" });
    return error.message;
  }
  return intl.formatMessage({ id: "auth.emailNotSent" });
}

/**
 * A new e-mail address: the server e-mails it a link and a code, and the change is made when
 * either is used (typed here, or the link opened anywhere). Until then the old address stays.
 */
export function ChangeEmailForm({ currentEmail, returnPath, onChanged }: ChangeEmailFormProps) {
  const id = useId();
  const intl = useIntl();
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [waitingFor, setWaitingFor] = useState<string>();
  const trimmed = email.trim().toLowerCase();
  const fresh = useFreshSecondStep("change");

  async function send(address: string): Promise<SendOutcome> {
    const { error } = await requestEmailChange(address, returnPath);
    return error ? { sent: false, problem: refusalText(intl, error, address) } : { sent: true };
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || trimmed === "" || trimmed === currentEmail) return;
    // The field's rule before anything is sent (the browser's own check of an e-mail address).
    const input = event.currentTarget.querySelector<HTMLInputElement>('input[type="email"]');
    if (input && !input.checkValidity()) {
      setProblem(intl.formatMessage({ id: "changeEmail.invalid" }));
      return;
    }
    setBusy(true);
    setProblem(undefined);
    const address = trimmed;
    try {
      // With a second step, a session without it proves it first, then the change is asked for again.
      await fresh.run(
        () => requestEmailChange(address, returnPath),
        (error) => {
          if (error) setProblem(refusalText(intl, error, address));
          else setWaitingFor(address);
        },
      );
    } catch {
      setProblem(intl.formatMessage({ id: "auth.emailNotSent" }));
    } finally {
      setBusy(false);
    }
  }

  if (waitingFor)
    return (
      <EmailCodeForm
        email={waitingFor}
        purpose="email_change"
        resend={send}
        backLabel={intl.formatMessage({ id: "common.cancel" })}
        onBack={() => setWaitingFor(undefined)}
        onVerified={() => {
          setWaitingFor(undefined);
          setEmail("");
          onChanged(waitingFor);
        }}
      />
    );

  return (
    <>
      <form className="flex flex-col gap-2" onSubmit={(event) => void handleSubmit(event)} noValidate>
        <Label htmlFor={id}>{intl.formatMessage({ id: "changeEmail.label" })}</Label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            id={id}
            type="email"
            autoComplete="email"
            placeholder={currentEmail}
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              setProblem(undefined);
            }}
            aria-invalid={problem !== undefined || undefined}
            aria-describedby={`${id}-hint`}
          />
          <Button type="submit" className="sm:w-40" disabled={busy || trimmed === "" || trimmed === currentEmail}>
            {busy ? intl.formatMessage({ id: "auth.sending" }) : intl.formatMessage({ id: "changeEmail.submit" })}
          </Button>
        </div>
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {intl.formatMessage({ id: "changeEmail.hint" }, { email: currentEmail })}
        </p>
        <FieldProblem problem={problem} />
      </form>
      {fresh.dialog}
    </>
  );
}
