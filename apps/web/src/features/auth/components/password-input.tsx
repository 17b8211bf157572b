import { useState, type ComponentProps } from "react";
import { EyeIcon, EyeOffIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { useIntl } from "@/lib/intl";

/** A password field with a button that shows what was typed (for phones, where typos are easy). */
export function PasswordInput(props: Omit<ComponentProps<"input">, "type">) {
  const [shown, setShown] = useState(false);
  const intl = useIntl();
  return (
    <div className="relative">
      <Input {...props} type={shown ? "text" : "password"} className="pe-10" />
      <Button
        type="button"
        variant="ghost"
        size="icon"
        aria-label={intl.formatMessage({ id: "auth.password.show" })}
        aria-pressed={shown}
        aria-controls={props.id}
        onClick={() => setShown((current) => !current)}
        className="absolute end-0 top-0 size-9 text-muted-foreground hover:bg-transparent"
      >
        {shown ? <EyeOffIcon aria-hidden="true" /> : <EyeIcon aria-hidden="true" />}
      </Button>
    </div>
  );
}
