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

export interface ChangeEmailFormProps {
  currentEmail: string;
  /** Where the confirmation link brings the member back to. */
  returnPath: string;
  onChanged: (email: string) => void;
}

/** Why a new address was refused, in words; the server's own message otherwise. */
function refusalText(error: unknown, email: string): string {
  if (isAuthError(error)) {
    if (error.code === ErrorCode.email_not_invited)
      return `Only invited addresses can be used here: ask an owner to invite ${email} first, then try again.`;
    if (error.code === ErrorCode.email_exists) return `${email} already belongs to an account.`;
    return error.message;
  }
  return "The email could not be sent just now. Please try again.";
}

/**
 * A new e-mail address: the server e-mails it a link and a code, and the change is made when
 * either is used (typed here, or the link opened anywhere). Until then the old address stays.
 */
export function ChangeEmailForm({ currentEmail, returnPath, onChanged }: ChangeEmailFormProps) {
  const id = useId();
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [waitingFor, setWaitingFor] = useState<string>();
  const trimmed = email.trim().toLowerCase();
  const fresh = useFreshSecondStep("change");

  async function send(address: string): Promise<SendOutcome> {
    const { error } = await requestEmailChange(address, returnPath);
    return error ? { sent: false, problem: refusalText(error, address) } : { sent: true };
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || trimmed === "" || trimmed === currentEmail) return;
    setBusy(true);
    setProblem(undefined);
    const address = trimmed;
    try {
      // With a second step, a session without it proves it first, then the change is asked for again.
      await fresh.run(
        () => requestEmailChange(address, returnPath),
        (error) => {
          if (error) setProblem(refusalText(error, address));
          else setWaitingFor(address);
        },
      );
    } catch {
      setProblem("The email could not be sent just now. Please try again.");
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
        backLabel="Cancel"
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
        <Label htmlFor={id}>New email</Label>
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
            {busy ? "Sending..." : "Change email"}
          </Button>
        </div>
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          You sign in with {currentEmail}. The new address gets a link and a code to confirm it; until then nothing changes.
        </p>
        <FieldProblem problem={problem} />
      </form>
      {fresh.dialog}
    </>
  );
}
