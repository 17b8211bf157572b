import { useId, useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { Credentials } from "@/features/auth/api/credentials";

export interface CredentialsFormProps {
  passwordPlaceholder: string;
  passwordAutoComplete: "current-password" | "new-password";
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  onSubmit: (credentials: Credentials) => void;
}

/** E-mail and password with a submit button that waits for both and is disabled while busy. */
export function CredentialsForm({
  passwordPlaceholder,
  passwordAutoComplete,
  submitLabel,
  busyLabel,
  busy,
  onSubmit,
}: CredentialsFormProps) {
  const id = useId();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const trimmedEmail = email.trim();
  const disabled = busy || trimmedEmail === "" || password === "";

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (disabled) return;
    onSubmit({ email: trimmedEmail, password });
  }

  return (
    <form className="flex flex-col gap-4" onSubmit={handleSubmit}>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-email`}>Email</Label>
        <Input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          placeholder="Enter your email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          required
        />
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-password`}>Password</Label>
        <Input
          id={`${id}-password`}
          type="password"
          autoComplete={passwordAutoComplete}
          placeholder={passwordPlaceholder}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          required
        />
      </div>
      <Button type="submit" className="w-full" disabled={disabled}>
        {busy ? busyLabel : submitLabel}
      </Button>
    </form>
  );
}
