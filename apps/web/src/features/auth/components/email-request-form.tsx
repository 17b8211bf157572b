import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { EmailField } from "@/features/auth/components/email-field";
import { useIntl } from "@/lib/intl";

/** How sending went: on its way, or refused (with words to show, unless a toast said it already). */
export type SendOutcome = { sent: true } | { sent: false; problem?: string };

export interface EmailRequestFormProps {
  heading: string;
  description: string;
  submitLabel: string;
  send: (email: string) => Promise<SendOutcome>;
  /** What the visitor reads once it is on its way. */
  sentMessage: (email: string) => string;
  /** After sending, the next step may need the address (typing the code). */
  onSent?: (email: string) => void;
  onBack: () => void;
  initialEmail?: string;
}

/**
 * One address, one e-mail: a password reset link, a new confirmation, a sign-in code. The answer
 * never says whether the address belongs to a member; only the invitation check (on sign-in and
 * sign-up) does that, as the spec asks.
 */
export function EmailRequestForm({
  heading,
  description,
  submitLabel,
  send,
  sentMessage,
  onSent,
  onBack,
  initialEmail = "",
}: EmailRequestFormProps) {
  const [email, setEmail] = useState(initialEmail);
  const intl = useIntl();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [sentTo, setSentTo] = useState<string>();
  const trimmed = email.trim();

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || trimmed === "") return;
    setBusy(true);
    setProblem(undefined);
    try {
      const outcome = await send(trimmed);
      if (!outcome.sent) setProblem(outcome.problem);
      else {
        setSentTo(trimmed);
        onSent?.(trimmed);
      }
    } catch {
      setProblem(intl.formatMessage({ id: "auth.emailNotSent" }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="flex flex-col gap-4" onSubmit={(event) => void handleSubmit(event)}>
      <div className="space-y-1">
        <h2 className="text-lg font-semibold">{heading}</h2>
        <p className="text-sm text-muted-foreground">{description}</p>
      </div>
      <EmailField value={email} onChange={setEmail} />
      {problem && (
        <p role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      )}
      {sentTo && !problem && (
        <p role="status" className="text-sm">
          {sentMessage(sentTo)}
        </p>
      )}
      <Button type="submit" className="w-full" disabled={busy || trimmed === ""}>
        {busy ? intl.formatMessage({ id: "auth.sending" }) : submitLabel}
      </Button>
      <Button type="button" variant="link" className="self-center" onClick={onBack}>
        {intl.formatMessage({ id: "auth.backToSignIn" })}
      </Button>
    </form>
  );
}
