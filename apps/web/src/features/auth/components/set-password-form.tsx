import { useId, useState, type FormEvent } from "react";
import { ErrorCode } from "@memory-box/contract";
import { isAuthError } from "@supabase/auth-js";

import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { requestReauthentication, setNewPassword } from "@/features/auth/api/email-links";
import { useFreshSecondStep } from "@/features/auth/components/fresh-second-step";
import { OneTimeCodeField } from "@/features/auth/components/one-time-code-field";
import { PasswordInput } from "@/features/auth/components/password-input";
import { passwordProblemsOf, passwordRule } from "@/features/auth/utils/password-rule";
import { useIntl } from "@/lib/intl";

export interface SetPasswordFormProps {
  onDone: () => void;
  /** The button's words; "Save password" by default. */
  submitLabel?: string;
  /** In a settings section the button sits at the start, as wide as its neighbours'; full width on its own screen. */
  inline?: boolean;
}

/**
 * A new password for the signed-in member (arrived through a password reset link, or in the
 * account area). Where the server first wants proof it is really them (a session older than a
 * day), it e-mails a code, and the form asks for it before saving.
 */
export function SetPasswordForm({ onDone, submitLabel, inline = false }: SetPasswordFormProps) {
  const id = useId();
  const intl = useIntl();
  const saveFailed = () => intl.formatMessage({ id: "setPassword.saveFailed" });
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  // Set once the server asked for a reauthentication code and it was sent.
  const [codeSent, setCodeSent] = useState(false);
  const [code, setCode] = useState("");
  const digits = code.replace(/\D/g, "");
  const ready = password !== "" && (!codeSent || digits.length === 6);
  const fresh = useFreshSecondStep("change");

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !ready) return;
    setBusy(true);
    setProblems([]);
    try {
      // A member with a second step proves it first (a reset link signs in with the address alone).
      await fresh.run(
        () => setNewPassword(password, codeSent ? digits : undefined),
        (error) => void handleOutcome(error),
      );
    } catch {
      setProblems([saveFailed()]);
    } finally {
      setBusy(false);
    }
  }

  async function handleOutcome(error: unknown) {
    try {
      if (!error) {
        onDone();
        return;
      }
      if (isAuthError(error) && error.code === ErrorCode.reauthentication_needed) {
        const sent = await requestReauthentication();
        if (sent.error) setProblems([sent.error.message]);
        else setCodeSent(true);
        return;
      }
      if (isAuthError(error) && error.code === ErrorCode.reauthentication_not_valid) {
        setProblems([intl.formatMessage({ id: "setPassword.codeWrong" })]);
        return;
      }
      const weak = passwordProblemsOf(error);
      setProblems(weak.length > 0 ? weak : [isAuthError(error) ? error.message : saveFailed()]);
    } catch {
      setProblems([saveFailed()]);
    }
  }

  return (
    <>
      <form className="flex flex-col gap-4" onSubmit={(event) => void handleSubmit(event)}>
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-password`}>{intl.formatMessage({ id: "setPassword.label" })}</Label>
          <PasswordInput
            id={`${id}-password`}
            autoComplete="new-password"
            placeholder={intl.formatMessage({ id: "auth.signUp.passwordPlaceholder" })}
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              setProblems([]);
            }}
            required
            aria-invalid={problems.length > 0 || undefined}
            aria-describedby={[`${id}-rule`, problems.length > 0 ? `${id}-problems` : ""].filter(Boolean).join(" ")}
          />
          <p id={`${id}-rule`} className="text-sm text-muted-foreground">
            {passwordRule(intl)}
          </p>
          {problems.length > 0 && (
            <ul id={`${id}-problems`} role="alert" className="text-sm text-destructive">
              {problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          )}
        </div>
        {codeSent && (
          <OneTimeCodeField
            label={intl.formatMessage({ id: "setPassword.codeLabel" })}
            value={code}
            onChange={(value) => {
              setCode(value);
              setProblems([]);
            }}
            hint={intl.formatMessage({ id: "setPassword.codeHint" })}
          />
        )}
        <Button type="submit" className={inline ? "self-start sm:w-40" : "w-full"} disabled={busy || !ready}>
          {busy
            ? intl.formatMessage({ id: "setPassword.saving" })
            : (submitLabel ?? intl.formatMessage({ id: "setPassword.save" }))}
        </Button>
      </form>
      {/* Beside the form, not in it: a submit in the dialog must not submit the password again. */}
      {fresh.dialog}
    </>
  );
}
