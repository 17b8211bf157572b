import { useId, useState, type FormEvent, type ReactNode } from "react";

import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { EmailField } from "@/features/auth/components/email-field";
import type { Credentials } from "@/features/auth/api/credentials";
import { PasswordInput } from "@/features/auth/components/password-input";
import { useIntl } from "@/lib/intl";

export interface CredentialsFormProps {
  passwordPlaceholder: string;
  /** Shown under the password field before anything is submitted (the rule a new password must meet). */
  passwordHint?: string;
  /** What the server found wrong with the password last submitted; cleared by the parent on a change. */
  passwordProblems?: string[];
  onPasswordChange?: () => void;
  passwordAutoComplete: "current-password" | "new-password";
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  onSubmit: (credentials: Credentials) => void;
  /** Under the submit button: other ways in ("Forgot password?"). */
  footer?: ReactNode;
  /** The address to start with (an invitation link names it). */
  initialEmail?: string;
}

/** E-mail and password with a submit button that waits for both and is disabled while busy. */
export function CredentialsForm({
  passwordPlaceholder,
  passwordHint,
  passwordProblems = [],
  onPasswordChange,
  passwordAutoComplete,
  submitLabel,
  busyLabel,
  busy,
  onSubmit,
  footer,
  initialEmail = "",
}: CredentialsFormProps) {
  const id = useId();
  const intl = useIntl();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState("");
  const trimmedEmail = email.trim();
  const disabled = busy || trimmedEmail === "" || password === "";
  const hintId = `${id}-password-hint`;
  const problemsId = `${id}-password-problems`;
  const describedBy = [passwordHint ? hintId : "", passwordProblems.length > 0 ? problemsId : ""].filter(Boolean).join(" ");

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (disabled) return;
    onSubmit({ email: trimmedEmail, password });
  }

  return (
    <form className="flex flex-col gap-4" onSubmit={handleSubmit}>
      <EmailField value={email} onChange={setEmail} />
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-password`}>{intl.formatMessage({ id: "auth.password.label" })}</Label>
        <PasswordInput
          id={`${id}-password`}
          autoComplete={passwordAutoComplete}
          placeholder={passwordPlaceholder}
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
            onPasswordChange?.();
          }}
          required
          aria-describedby={describedBy || undefined}
          aria-invalid={passwordProblems.length > 0 || undefined}
        />
        {passwordHint && (
          <p id={hintId} className="text-sm text-muted-foreground">
            {passwordHint}
          </p>
        )}
        {passwordProblems.length > 0 && (
          <ul id={problemsId} className="text-sm text-destructive">
            {passwordProblems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        )}
      </div>
      <Button type="submit" className="w-full" disabled={disabled}>
        {busy ? busyLabel : submitLabel}
      </Button>
      {footer}
    </form>
  );
}
