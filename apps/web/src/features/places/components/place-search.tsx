import { useState, type KeyboardEvent, type Ref } from "react";
import type { KnownPlace } from "@memory-box/contract";
import { Loader2Icon } from "lucide-react";

import { Input } from "@/components/ui/input";
import { useDebouncedValue } from "@/hooks/use-debounced-value";
import { usePlaceSearch } from "@/features/places/api/place-search";
import { placeLabel } from "@/features/places/utils/place-names";
import { cn } from "@/lib/utils";
import { useIntl } from "@/lib/intl";

/** How long typing must pause before the place search goes to the API. */
export const placeSearchDebounceMs = 250;

/**
 * A search over the known places' names as a combobox (ARIA 1.2, list autocomplete): the results
 * ("Sintra, Portugal") in a listbox under the field, Arrow keys move through them, Enter chooses,
 * Escape closes; focus stays in the field. While it searches, finds nothing or fails, a line under
 * the field says so (and is read out).
 */
export function PlaceSearch({
  id,
  inputRef,
  disabled,
  describedBy,
  onChoose,
}: {
  /** The field's id, for its label. */
  id: string;
  inputRef?: Ref<HTMLInputElement>;
  disabled?: boolean;
  describedBy?: string;
  onChoose: (place: KnownPlace) => void;
}) {
  const intl = useIntl();
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [q] = useDebouncedValue(text.trim(), placeSearchDebounceMs);
  const search = usePlaceSearch(q);
  const typed = text.trim() !== "";
  // The answer for what is typed now (a previous search's stays on screen while the next loads).
  const places = typed && q !== "" ? (search.data?.places ?? []) : [];
  const settled = typed && q === text.trim() && !search.isPlaceholderData && !search.isFetching;
  const expanded = open && typed && places.length > 0;
  const listId = `${id}-results`;
  const optionId = (index: number) => `${id}-result-${index}`;

  const status = !typed
    ? ""
    : search.isError && settled
      ? intl.formatMessage({ id: "places.search.error" })
      : !settled
        ? intl.formatMessage({ id: "places.search.loading" })
        : places.length === 0
          ? intl.formatMessage({ id: "places.search.empty" })
          : intl.formatMessage({ id: "places.search.count" }, { count: places.length });

  function choose(place: KnownPlace) {
    setOpen(false);
    setActive(-1);
    setText("");
    onChoose(place);
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case "ArrowDown":
        event.preventDefault();
        setOpen(true);
        if (places.length > 0) setActive((index) => (index + 1) % places.length);
        break;
      case "ArrowUp":
        event.preventDefault();
        setOpen(true);
        if (places.length > 0) setActive((index) => (index <= 0 ? places.length - 1 : index - 1));
        break;
      case "Enter": {
        // Never the memory form's submit: Enter here chooses a place or does nothing.
        event.preventDefault();
        const place = expanded ? places[active] : undefined;
        if (place) choose(place);
        break;
      }
      case "Escape":
        if (expanded) {
          // Closes the list, not the dialog around the form.
          event.preventDefault();
          event.stopPropagation();
          setOpen(false);
          setActive(-1);
        }
        break;
    }
  }

  return (
    <div className="relative flex flex-col gap-1">
      <div className="relative">
        <Input
          ref={inputRef}
          id={id}
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
          aria-describedby={[describedBy, `${id}-status`].filter(Boolean).join(" ")}
          autoComplete="off"
          placeholder={intl.formatMessage({ id: "places.search.placeholder" })}
          value={text}
          disabled={disabled}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={handleKeyDown}
          onBlur={() => setOpen(false)}
          className={cn(typed && !settled && "pe-9")}
        />
        {typed && !settled && (
          <Loader2Icon
            aria-hidden="true"
            className="absolute end-3 top-1/2 size-4 -translate-y-1/2 animate-spin text-muted-foreground"
          />
        )}
      </div>
      <ul
        id={listId}
        role="listbox"
        aria-label={intl.formatMessage({ id: "places.search.results" })}
        hidden={!expanded}
        className="absolute inset-x-0 top-10 z-50 max-h-64 overflow-y-auto rounded-md border bg-popover p-1 text-popover-foreground shadow-md"
      >
        {expanded &&
          places.map((place, index) => (
            <li
              key={`${place.name}-${place.latitude}-${place.longitude}`}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              // Keeps focus in the field; the click chooses.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(place)}
              onMouseEnter={() => setActive(index)}
              className={cn(
                "cursor-default rounded-sm px-2 py-1.5 text-sm select-none",
                index === active && "bg-accent text-accent-foreground",
              )}
            >
              <bdi>{placeLabel(place.name, place.country_code, intl)}</bdi>
            </li>
          ))}
      </ul>
      <p
        id={`${id}-status`}
        role="status"
        className={cn("text-xs", search.isError && settled ? "text-destructive" : "text-muted-foreground")}
      >
        {/* The count is for screen readers; the list itself shows it. */}
        <span className={cn(expanded && "sr-only")}>{status}</span>
      </p>
    </div>
  );
}
