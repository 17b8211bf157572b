import { useId, useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { setNewPassword } from "@/features/auth/api/email-links";
import { PasswordInput } from "@/features/auth/components/password-input";
import { passwordProblemsOf, passwordRule } from "@/features/auth/utils/password-rule";

/** A new password for the signed-in member (arrived through a password reset link). */
export function SetPasswordForm({ onDone }: { onDone: () => void }) {
  const id = useId();
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || password === "") return;
    setBusy(true);
    setProblems([]);
    try {
      const { error } = await setNewPassword(password);
      if (!error) {
        onDone();
        return;
      }
      const weak = passwordProblemsOf(error);
      setProblems(weak.length > 0 ? weak : [error.message]);
    } catch {
      setProblems(["The password could not be saved just now. Please try again."]);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="flex flex-col gap-4" onSubmit={(event) => void handleSubmit(event)}>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-password`}>New password</Label>
        <PasswordInput
          id={`${id}-password`}
          autoComplete="new-password"
          placeholder="Create a password"
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
          {passwordRule}
        </p>
        {problems.length > 0 && (
          <ul id={`${id}-problems`} role="alert" className="text-sm text-destructive">
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        )}
      </div>
      <Button type="submit" className="w-full" disabled={busy || password === ""}>
        {busy ? "Saving..." : "Save password"}
      </Button>
    </form>
  );
}
