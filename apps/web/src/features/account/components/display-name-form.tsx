import { useId, useState, type FormEvent } from "react";
import { AccountLimits } from "@memory-box/contract";

import { FieldProblem } from "@/components/field-problem";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useChangeDisplayName } from "@/features/account/api/display-name";
import { notify } from "@/lib/notify";
import { useIntl } from "@/lib/intl";

const max = AccountLimits.displayNameMaxLength;

/**
 * The name the greeting and the cards show. The rule (1 to 80 characters, not only spaces) is
 * shown by the field and checked before sending; the server's refusal, if any, is said there too.
 */
export function DisplayNameForm({ current }: { current: string }) {
  const id = useId();
  const intl = useIntl();
  const [name, setName] = useState(current);
  const [problem, setProblem] = useState<string>();
  const change = useChangeDisplayName();
  const trimmed = name.trim();
  const tooLong = trimmed.length > max;
  const unchanged = trimmed === current;
  const ruleId = `${id}-rule`;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (trimmed === "" || tooLong || unchanged || change.isPending) return;
    setProblem(undefined);
    change.mutate(trimmed, {
      onSuccess: () =>
        notify.success(
          intl.formatMessage({ id: "account.name.saved" }),
          intl.formatMessage({ id: "account.name.savedDetail" }, { name: trimmed }),
        ),
      onError: (error) => setProblem(error.message || intl.formatMessage({ id: "account.name.failed" })),
    });
  }

  return (
    <form className="flex flex-col gap-2" onSubmit={handleSubmit} noValidate>
      <Label htmlFor={id}>{intl.formatMessage({ id: "account.name.label" })}</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={id}
          value={name}
          autoComplete="name"
          onChange={(event) => {
            setName(event.target.value);
            setProblem(undefined);
          }}
          aria-invalid={tooLong || trimmed === "" || problem !== undefined || undefined}
          aria-describedby={ruleId}
        />
        <Button type="submit" className="sm:w-40" disabled={trimmed === "" || tooLong || unchanged || change.isPending}>
          {change.isPending ? intl.formatMessage({ id: "account.name.saving" }) : intl.formatMessage({ id: "account.name.save" })}
        </Button>
      </div>
      <p id={ruleId} className={tooLong || trimmed === "" ? "text-sm text-destructive" : "text-sm text-muted-foreground"}>
        {trimmed === ""
          ? intl.formatMessage({ id: "account.name.empty" })
          : intl.formatMessage({ id: "account.name.hint" }, { count: trimmed.length, max })}
      </p>
      <FieldProblem problem={problem} />
    </form>
  );
}
