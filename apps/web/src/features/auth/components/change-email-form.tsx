import { useEffect, useId, useState, type FormEvent } from "react";
import { ErrorCode } from "@memory-box/contract";
import { isAuthError } from "@supabase/auth-js";

import { FieldProblem } from "@/components/field-problem";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { requestEmailChange } from "@/features/auth/api/email-links";
import { useCancelEmailChange, usePendingEmail, useRefreshPendingEmail } from "@/features/auth/api/pending-email";
import { EmailCodeForm } from "@/features/auth/components/email-code-form";
import { useFreshSecondStep } from "@/features/auth/components/fresh-second-step";
import type { SendOutcome } from "@/features/auth/components/email-request-form";
import { takeLinkArrival } from "@/lib/auth-client";
import { useIntl, type AppIntl } from "@/lib/intl";
import { notify } from "@/lib/notify";

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
  const pending = usePendingEmail();
  const refreshPending = useRefreshPendingEmail();
  const cancel = useCancelEmailChange();
  const [enteringCode, setEnteringCode] = useState(false);

  // Arrived through the new address's confirmation link: the change is made, and said so.
  useEffect(() => {
    if (takeLinkArrival() === "email_change") onChanged(currentEmail);
    // Only once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function cancelChange() {
    cancel.mutate(currentEmail, {
      onSuccess: () => {
        setWaitingFor(undefined);
        setEnteringCode(false);
        notify.success(
          intl.formatMessage({ id: "changeEmail.cancelled" }),
          intl.formatMessage({ id: "changeEmail.cancelledDetail" }, { email: currentEmail }),
        );
      },
      onError: () =>
        notify.error(intl.formatMessage({ id: "toast.error" }), intl.formatMessage({ id: "changeEmail.cancelFailed" })),
    });
  }

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
          else {
            setWaitingFor(address);
            void refreshPending();
          }
        },
      );
    } catch {
      setProblem(intl.formatMessage({ id: "auth.emailNotSent" }));
    } finally {
      setBusy(false);
    }
  }

  const pendingEmail = pending.data ?? undefined;
  const codeFor = waitingFor ?? (enteringCode ? pendingEmail : undefined);
  if (codeFor)
    return (
      <EmailCodeForm
        email={codeFor}
        purpose="email_change"
        resend={send}
        backLabel={intl.formatMessage({ id: "changeEmail.back" })}
        onBack={() => {
          setWaitingFor(undefined);
          setEnteringCode(false);
        }}
        onVerified={() => {
          setWaitingFor(undefined);
          setEnteringCode(false);
          setEmail("");
          void refreshPending();
          onChanged(codeFor);
        }}
      />
    );

  return (
    <>
      {pendingEmail && pendingEmail !== currentEmail ? (
        <div className="mb-4 flex flex-col gap-3 rounded-lg border bg-muted/40 p-4" role="status">
          <p className="font-medium break-words">{intl.formatMessage({ id: "changeEmail.pending" }, { email: pendingEmail })}</p>
          <p className="text-sm break-words text-muted-foreground">
            {intl.formatMessage({ id: "changeEmail.pendingHint" }, { email: pendingEmail, current: currentEmail })}
          </p>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button variant="outline" size="sm" onClick={() => setEnteringCode(true)}>
              {intl.formatMessage({ id: "changeEmail.enterCode" })}
            </Button>
            <Button variant="outline" size="sm" disabled={cancel.isPending} onClick={cancelChange}>
              {intl.formatMessage({ id: "changeEmail.cancelPending" })}
            </Button>
          </div>
        </div>
      ) : null}
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
