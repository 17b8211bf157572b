import { useId } from "react";

import { FieldProblem } from "@/components/field-problem";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { cn } from "@/lib/utils";

export interface OneTimeCodeFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Said under the field before anything went wrong. */
  hint?: string;
  /** What the server said about the last code, under the field. */
  problem?: string | undefined;
  autoFocus?: boolean;
  /** The large, spaced digits of a screen that asks for nothing else. */
  prominent?: boolean;
}

/** A six-digit code from an e-mail or an authenticator app: numeric keyboard, filled in by the OS where it can. */
export function OneTimeCodeField({ label, value, onChange, hint, problem, autoFocus, prominent }: OneTimeCodeFieldProps) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : "", problem ? `${id}-problem` : ""].filter(Boolean).join(" ");
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        inputMode="numeric"
        autoComplete="one-time-code"
        autoFocus={autoFocus}
        maxLength={8}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={cn(prominent && "text-center font-mono text-lg tracking-[0.4em]")}
      />
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {hint}
        </p>
      )}
      <FieldProblem id={`${id}-problem`} problem={problem} />
    </div>
  );
}
