import { useId, useState, type FormEvent } from "react";
import { ErrorCode } from "@memory-box/contract";
import { isAuthError } from "@supabase/auth-js";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CheckIcon, CopyIcon, DownloadIcon } from "lucide-react";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { FieldProblem } from "@/components/field-problem";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import {
  generateRecoveryCodes,
  recoveryCodesKey,
  recoveryCodesStatus,
  refreshRecoveryCodesStatus,
  verifyRecoveryCode,
} from "@/features/auth/api/recovery-codes";
import { useFreshSecondStep } from "@/features/auth/components/fresh-second-step";
import { formatDay } from "@/lib/dates";
import { notify } from "@/lib/notify";

/**
 * The recovery codes, the one time they are shown (ADR 0042): copy or download them, then say
 * they are saved. Nothing shows them again; new ones can be made instead.
 */
export function RecoveryCodesShown({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  const [copied, setCopied] = useState(false);
  const text = `Memory Box recovery codes\nEach code works once, instead of the code from your authenticator app or your security key.\n\n${codes.join("\n")}\n`;

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "memory-box-recovery-codes.txt";
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <section className="flex flex-col gap-4 rounded-lg border p-4" aria-labelledby="recovery-codes-title">
      <h3 id="recovery-codes-title" className="font-medium">
        Your recovery codes
      </h3>
      <p className="text-sm">
        If you ever lose your phone or security key, one of these codes lets you in instead. Each works once. Keep them somewhere
        safe, away from this device: in a password manager, or printed and put away with your important papers.
      </p>
      <ol aria-label="Recovery codes" className="grid grid-cols-2 gap-2 rounded-md bg-muted p-3 font-mono text-sm">
        {codes.map((code) => (
          <li key={code} className="text-center tracking-wider">
            {code}
          </li>
        ))}
      </ol>
      <p className="text-sm text-muted-foreground">This is the only time they are shown. You can make new ones at any time.</p>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          onClick={() =>
            void navigator.clipboard.writeText(codes.join("\n")).then(
              () => setCopied(true),
              () => notify.error("Error", "Could not copy the codes; select them and copy them by hand, or download them."),
            )
          }
        >
          {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
          {copied ? "Copied" : "Copy"}
        </Button>
        <Button type="button" variant="outline" onClick={download}>
          <DownloadIcon aria-hidden="true" />
          Download
        </Button>
        <Button type="button" onClick={onSaved}>
          I have saved them
        </Button>
      </div>
    </section>
  );
}

/**
 * Settings' line about the recovery codes (how many are left) and "Generate new recovery codes",
 * which asks for the second step first when this session has not proven it.
 */
export function RecoveryCodes({ onGenerated }: { onGenerated: (codes: string[]) => void }) {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: recoveryCodesKey, queryFn: recoveryCodesStatus });
  const fresh = useFreshSecondStep("change");
  const [busy, setBusy] = useState(false);

  function generate() {
    let codes: string[] = [];
    void fresh.run(
      async () => {
        setBusy(true);
        try {
          codes = await generateRecoveryCodes();
        } finally {
          setBusy(false);
        }
      },
      (error) => {
        void refreshRecoveryCodesStatus(queryClient);
        if (error) {
          notify.error("Error", "New recovery codes could not be made. Please try again.");
          return;
        }
        onGenerated(codes);
      },
    );
  }

  const left = status.data?.remaining ?? 0;
  return (
    <div className="flex flex-col gap-2">
      {fresh.dialog}
      {status.data && (
        <p className="text-sm text-muted-foreground">
          {status.data.created_at === null
            ? "No recovery codes yet. Make some, so that losing your phone or key never locks you out."
            : left === 0
              ? "You have used all your recovery codes. Make new ones, so that losing your phone or key never locks you out."
              : `Recovery codes: ${left} of 10 left, made ${formatDay(status.data.created_at)}.`}
        </p>
      )}
      <div>
        <ConfirmDialog
          trigger={
            <Button variant="outline" disabled={busy}>
              {busy ? "Making codes..." : "Generate new recovery codes"}
            </Button>
          }
          title="Make new recovery codes?"
          description="Your old recovery codes stop working at once, whether you used them or not. The new ones are shown once."
          confirmLabel="Generate new codes"
          onConfirm={generate}
        />
      </div>
    </div>
  );
}

/** What a refused recovery code means, in words. */
function problemText(error: unknown): string {
  if (isAuthError(error) && error.code === ErrorCode.mfa_verification_failed)
    return "That recovery code is not right, or it was already used. Check it, or try another of your codes.";
  if (isAuthError(error) && error.code === ErrorCode.mfa_recovery_codes_locked)
    return "Too many wrong recovery codes. They are refused for 15 minutes; try again then, or ask an owner to reset your two-step verification.";
  return "The code could not be checked just now. Please try again.";
}

/** The second step with one of the recovery codes instead of the app or the key. */
export function RecoveryCodeForm({ onVerified }: { onVerified?: (() => void) | undefined }) {
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
        <Label htmlFor={id}>Recovery code</Label>
        <Input
          id={id}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          placeholder="xxxxx-xxxxx"
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
          One of the codes you saved when you turned on two-step verification. Each works once.
        </p>
        <FieldProblem id={`${id}-problem`} problem={problem} />
      </div>
      <Button type="submit" className="w-full" disabled={busy || typed.length !== 10}>
        {busy ? "Checking..." : "Use recovery code"}
      </Button>
    </form>
  );
}
