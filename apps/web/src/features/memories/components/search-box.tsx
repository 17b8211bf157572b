import { useId, type Ref } from "react";
import { Search } from "lucide-react";

import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { cn } from "@/lib/utils";
import { useIntl } from "@/lib/intl";

export interface SearchBoxProps {
  value: string;
  onChange: (value: string) => void;
  inputRef?: Ref<HTMLInputElement>;
  className?: string;
}

/** The home search field: a search input with a (visually hidden) label and a magnifier. */
export function SearchBox(props: SearchBoxProps) {
  return <SearchBoxView {...props} id={useId()} />;
}

/** `SearchBox` with its field's id given: without state, so the first screen's script draws it too (ADR 0039). */
export function SearchBoxView({ value, onChange, inputRef, className, id }: SearchBoxProps & { id: string }) {
  const intl = useIntl();
  return (
    <div role="search" className={cn("relative", className)}>
      <Label htmlFor={id} className="sr-only">
        {intl.formatMessage({ id: "home.search.label" })}
      </Label>
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute start-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input
        ref={inputRef}
        id={id}
        type="search"
        placeholder={intl.formatMessage({ id: "home.search.placeholder" })}
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="bg-background ps-9"
      />
    </div>
  );
}
