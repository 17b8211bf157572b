import { useId, useState, type ClipboardEvent, type KeyboardEvent } from "react";
import { parseTagText, tagSeparators } from "@memory-box/contract";
import { XIcon } from "lucide-react";

import { Input } from "@/components/ui/input";
import { useTags } from "@/features/memories/api/get-tags";
import { tagSuggestions, tagTextOf, withTags } from "@/features/memories/utils/tag-chips";
import { cn } from "@/lib/utils";
import { useIntl } from "@/lib/intl";

export interface TagsFieldProps {
  id: string;
  /** The tags as the form keeps them: comma-separated text (what the server's rules read). */
  value: string;
  onChange: (text: string) => void;
  disabled?: boolean;
  /** Ids of the notes that describe the field (its hint, count, problem). */
  describedBy?: string | undefined;
  invalid?: boolean | undefined;
}

/**
 * The memory form's tags as chips (issue #34): typing offers the tags in use (a combobox with a
 * list box, WAI-ARIA's pattern), Enter or a comma makes a chip, Backspace in the empty field
 * takes the last one off, and comma-separated text typed or pasted ("a, b, c") still becomes
 * one chip per tag. What is typed but not yet a chip is saved as a tag too.
 */
export function TagsField({ id, value, onChange, disabled, describedBy, invalid }: TagsFieldProps) {
  const intl = useIntl();
  const listId = useId();
  const [chips, setChips] = useState<string[]>(() => parseTagText(value) ?? []);
  const [draft, setDraft] = useState("");
  const [emitted, setEmitted] = useState(value);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  // The tags in use are asked for when the field is first used (home usually has them already).
  const [used, setUsed] = useState(false);
  const inUse = useTags({ enabled: used }).data?.tags.map(({ tag }) => tag) ?? [];

  // The value changed from outside (a save merged with someone else's edit): the chips follow it.
  if (value !== emitted) {
    setEmitted(value);
    setChips(parseTagText(value) ?? []);
    setDraft("");
  }

  const suggestions = open ? tagSuggestions(inUse, chips, draft) : [];
  const expanded = suggestions.length > 0;

  function update(nextChips: string[], nextDraft: string) {
    const text = tagTextOf(nextChips, nextDraft);
    setChips(nextChips);
    setDraft(nextDraft);
    setEmitted(text);
    setActive(-1);
    onChange(text);
  }

  /** Text with commas: each finished part a chip, what follows the last comma still being typed. */
  function take(text: string) {
    const parts = text.split(tagSeparators);
    const rest = parts.pop() ?? "";
    update(withTags(chips, parts), rest.trimStart());
    setOpen(true);
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" && expanded) {
      event.preventDefault();
      setActive((current) => (current + 1) % suggestions.length);
    } else if (event.key === "ArrowUp" && expanded) {
      event.preventDefault();
      setActive((current) => (current <= 0 ? suggestions.length - 1 : current - 1));
    } else if (event.key === "Escape" && expanded) {
      // Closes the suggestions, not the dialog around the form.
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    } else if (event.key === "Enter") {
      const chosen = active >= 0 ? suggestions[active] : draft.trim();
      // An empty field leaves Enter to the form (it saves).
      if (!chosen) return;
      event.preventDefault();
      update(withTags(chips, [chosen]), "");
    } else if (event.key === "Backspace" && draft === "" && chips.length > 0) {
      event.preventDefault();
      update(chips.slice(0, -1), "");
    }
  }

  function handlePaste(event: ClipboardEvent<HTMLInputElement>) {
    const pasted = event.clipboardData.getData("text");
    if (!tagSeparators.test(pasted)) return;
    event.preventDefault();
    const input = event.currentTarget;
    const start = input.selectionStart ?? draft.length;
    const end = input.selectionEnd ?? draft.length;
    take(`${draft.slice(0, start)}${pasted}${draft.slice(end)},`);
  }

  function remove(index: number) {
    update(
      chips.filter((_, position) => position !== index),
      draft,
    );
    document.getElementById(id)?.focus();
  }

  return (
    <div className="relative">
      <div
        className={cn(
          "flex min-h-9 flex-wrap items-center gap-1.5 rounded-md border border-input bg-transparent px-2 py-1 shadow-xs focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/50 dark:bg-input/30",
          invalid && "border-destructive",
          disabled && "opacity-50",
        )}
      >
        {chips.length > 0 && (
          <ul aria-label={intl.formatMessage({ id: "memory.form.chosenTags" })} className="contents">
            {chips.map((chip, index) => (
              <li
                key={chip.toLowerCase()}
                className="inline-flex max-w-full items-center gap-0.5 rounded-md bg-secondary py-0.5 ps-2 pe-0.5 text-sm text-secondary-foreground"
              >
                <span className="truncate">{chip}</span>
                <button
                  type="button"
                  className="inline-flex size-6 items-center justify-center rounded-sm hover:bg-background/60 focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
                  aria-label={intl.formatMessage({ id: "memory.form.removeTag" }, { tag: chip })}
                  disabled={disabled}
                  onClick={() => remove(index)}
                >
                  <XIcon aria-hidden="true" className="size-3.5" />
                </button>
              </li>
            ))}
          </ul>
        )}
        <Input
          id={id}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          value={draft}
          onChange={(event) => take(event.target.value)}
          onKeyDown={handleKeyDown}
          onPaste={handlePaste}
          onFocus={() => {
            setUsed(true);
            setOpen(true);
          }}
          onBlur={() => setOpen(false)}
          autoComplete="off"
          disabled={disabled}
          className="h-7 min-w-24 flex-1 border-0 bg-transparent p-0 px-1 shadow-none focus-visible:ring-0 dark:bg-transparent"
        />
      </div>
      <ul
        id={listId}
        role="listbox"
        aria-label={intl.formatMessage({ id: "memory.form.tagSuggestions" })}
        hidden={!expanded}
        className="absolute inset-x-0 top-full z-10 mt-1 max-h-56 overflow-y-auto rounded-md border bg-popover p-1 text-popover-foreground shadow-md"
      >
        {suggestions.map((tag, index) => (
          <li
            key={tag}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={cn(
              "cursor-pointer rounded-sm px-2 py-1.5 text-sm",
              index === active && "bg-accent text-accent-foreground",
            )}
            // Keeps the focus in the field, so a chip is made and typing goes on.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => update(withTags(chips, [tag]), "")}
          >
            {tag}
          </li>
        ))}
      </ul>
    </div>
  );
}
