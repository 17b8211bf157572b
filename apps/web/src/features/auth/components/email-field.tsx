import { useId } from "react";

import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useIntl } from "@/lib/intl";

/** The auth screen's "Email" field (the spec's placeholder), as every form there asks for it. */
export function EmailField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  const intl = useIntl();
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{intl.formatMessage({ id: "auth.email.label" })}</Label>
      <Input
        id={id}
        type="email"
        autoComplete="email"
        placeholder={intl.formatMessage({ id: "auth.email.placeholder" })}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        required
      />
    </div>
  );
}
