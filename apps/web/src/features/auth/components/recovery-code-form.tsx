import { useId, useState, type FormEvent } from "react";
import { ErrorCode } from "@memory-box/contract";
import { isAuthError } from "@supabase/auth-js";

import { FieldProblem } from "@/components/field-problem";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { verifyRecoveryCode } from "@/features/auth/api/recovery-codes";
import { activeIntl, useIntl } from "@/lib/intl";

// Apart from the codes' own screens (recovery-codes.tsx), which Settings shows: the sign-in page
// needs only this form, not their dialogs.

/** What a refused recovery code means, in words. */
function problemText(error: unknown): string {
  const intl = activeIntl();
  if (isAuthError(error) && error.code === ErrorCode.mfa_verification_failed)
    return intl.formatMessage({ id: "recovery.form.wrong" });
  if (isAuthError(error) && error.code === ErrorCode.mfa_recovery_codes_locked)
    return intl.formatMessage({ id: "recovery.form.locked" });
  return intl.formatMessage({ id: "recovery.form.failed" });
}

/** The second step with one of the recovery codes instead of the app or the key. */
export function RecoveryCodeForm({ onVerified }: { onVerified?: (() => void) | undefined }) {
  const intl = useIntl();
  const id = useId();
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const typed = code.replace(/[\s-]/g, "");

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || typed.length !== 10) return;
    setBusy(true);
    setProblem(undefined);
    try {
      await verifyRecoveryCode(code);
      onVerified?.();
    } catch (error) {
      setProblem(problemText(error));
      setBusy(false);
    }
  }

  return (
    <form className="flex flex-col gap-4" onSubmit={(event) => void handleSubmit(event)}>
      <div className="flex flex-col gap-2">
        <Label htmlFor={id}>{intl.formatMessage({ id: "recovery.form.label" })}</Label>
        <Input
          id={id}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          placeholder={intl.formatMessage({ id: "recovery.form.placeholder" })}
          maxLength={20}
          value={code}
          onChange={(event) => {
            setCode(event.target.value);
            setProblem(undefined);
          }}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-hint${problem ? ` ${id}-problem` : ""}`}
          className="text-center font-mono text-lg tracking-wider"
        />
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {intl.formatMessage({ id: "recovery.form.hint" })}
        </p>
        <FieldProblem id={`${id}-problem`} problem={problem} />
      </div>
      <Button type="submit" className="w-full" disabled={busy || typed.length !== 10}>
        {intl.formatMessage({ id: busy ? "recovery.form.busy" : "recovery.form.submit" })}
      </Button>
    </form>
  );
}
