import type { FrameSelection } from "@memory-box/contract";
import { FrameLimits } from "@memory-box/contract";
import { useId } from "react";

import { ChoiceGroup } from "@/components/choice-group";
import { FieldProblem } from "@/components/field-problem";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useTagChoices } from "@/features/frames/api/frames";
import type { FrameForm, FrameFormProblems } from "@/features/frames/utils/frame-form";
import { useIntl } from "@/lib/intl";

/**
 * A frame's name, what it shows (everything, some tags, a range of dates, On this day) and how (a
 * clock, dimmed at night): the fields of the pairing form at /device and of a frame's edit in
 * Settings. `problems` are shown once the member tried to send.
 */
export function FrameFields({
  value,
  onChange,
  problems,
  disabled = false,
}: {
  value: FrameForm;
  onChange: (value: FrameForm) => void;
  problems: FrameFormProblems;
  disabled?: boolean;
}) {
  const intl = useIntl();
  const id = useId();
  const set = (change: Partial<FrameForm>) => onChange({ ...value, ...change });
  const problem = (field: keyof FrameFormProblems) => {
    const message = problems[field];
    const max = field === "tags" ? FrameLimits.maxTags : FrameLimits.nameMaxLength;
    return message ? intl.formatMessage({ id: message }, { max }) : undefined;
  };

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-name`}>{intl.formatMessage({ id: "frames.form.name" })}</Label>
        <Input
          id={`${id}-name`}
          value={value.name}
          onChange={(event) => set({ name: event.target.value })}
          maxLength={FrameLimits.nameMaxLength + 20}
          aria-invalid={problems.name ? true : undefined}
          aria-describedby={problems.name ? `${id}-name-problem` : undefined}
          disabled={disabled}
          autoComplete="off"
        />
        <FieldProblem id={`${id}-name-problem`} problem={problem("name")} />
      </div>

      <ChoiceGroup<FrameSelection["kind"]>
        legend={intl.formatMessage({ id: "frames.form.shows" })}
        name={`${id}-kind`}
        value={value.kind}
        onChange={(kind) => set({ kind })}
        disabled={disabled}
        options={[
          { value: "everything", label: intl.formatMessage({ id: "frames.form.shows.everything" }) },
          { value: "tags", label: intl.formatMessage({ id: "frames.form.shows.tags" }) },
          { value: "dates", label: intl.formatMessage({ id: "frames.form.shows.dates" }) },
          { value: "on-this-day", label: intl.formatMessage({ id: "frames.form.shows.onThisDay" }) },
        ]}
      />

      {value.kind === "tags" && (
        <TagPicker
          chosen={value.tags}
          onChange={(tags) => set({ tags })}
          disabled={disabled}
          problem={problem("tags")}
          problemId={`${id}-tags-problem`}
        />
      )}

      {value.kind === "dates" && (
        <fieldset className="flex flex-col gap-2" disabled={disabled}>
          <legend className="mb-1 text-sm font-medium">{intl.formatMessage({ id: "frames.form.dates" })}</legend>
          <div className="flex flex-wrap gap-4">
            <div className="flex flex-col gap-2">
              <Label htmlFor={`${id}-from`}>{intl.formatMessage({ id: "frames.form.dates.from" })}</Label>
              <Input
                id={`${id}-from`}
                type="date"
                className="w-auto"
                value={value.from}
                onChange={(event) => set({ from: event.target.value })}
                aria-invalid={problems.dates ? true : undefined}
              />
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor={`${id}-to`}>{intl.formatMessage({ id: "frames.form.dates.to" })}</Label>
              <Input
                id={`${id}-to`}
                type="date"
                className="w-auto"
                value={value.to}
                onChange={(event) => set({ to: event.target.value })}
                aria-invalid={problems.dates ? true : undefined}
              />
            </div>
          </div>
          <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "frames.form.dates.hint" })}</p>
          <FieldProblem problem={problem("dates")} />
        </fieldset>
      )}

      <fieldset className="flex flex-col gap-3" disabled={disabled}>
        <legend className="mb-1 text-sm font-medium">{intl.formatMessage({ id: "frames.form.display" })}</legend>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={value.clock}
            onChange={(event) => set({ clock: event.target.checked })}
          />
          {intl.formatMessage({ id: "frames.form.clock" })}
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={value.dim}
            onChange={(event) => set({ dim: event.target.checked })}
          />
          {intl.formatMessage({ id: "frames.form.night" })}
        </label>
        {value.dim && (
          <div className="flex flex-wrap gap-4 ps-6">
            <div className="flex flex-col gap-2">
              <Label htmlFor={`${id}-night-from`}>{intl.formatMessage({ id: "frames.form.night.from" })}</Label>
              <Input
                id={`${id}-night-from`}
                type="time"
                className="w-auto"
                value={value.nightFrom}
                onChange={(event) => set({ nightFrom: event.target.value })}
              />
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor={`${id}-night-to`}>{intl.formatMessage({ id: "frames.form.night.to" })}</Label>
              <Input
                id={`${id}-night-to`}
                type="time"
                className="w-auto"
                value={value.nightTo}
                onChange={(event) => set({ nightTo: event.target.value })}
              />
            </div>
          </div>
        )}
        <FieldProblem problem={problem("night")} />
      </fieldset>
    </div>
  );
}

/** The collection's tags as checkboxes (and any chosen tag no memory carries any more, kept chosen). */
function TagPicker({
  chosen,
  onChange,
  disabled,
  problem,
  problemId,
}: {
  chosen: string[];
  onChange: (tags: string[]) => void;
  disabled: boolean;
  problem: string | undefined;
  problemId: string;
}) {
  const intl = useIntl();
  const tags = useTagChoices();
  const names = [...new Set([...(tags.data?.tags.map(({ tag }) => tag) ?? []), ...chosen])];
  const toggle = (tag: string, on: boolean) => onChange(on ? [...chosen, tag] : chosen.filter((other) => other !== tag));
  return (
    <fieldset className="flex flex-col gap-2" disabled={disabled} aria-describedby={problem ? problemId : undefined}>
      <legend className="mb-1 text-sm font-medium">{intl.formatMessage({ id: "frames.form.tags" })}</legend>
      {tags.isError ? (
        <p className="flex flex-wrap items-center gap-2 text-sm text-destructive" role="alert">
          {intl.formatMessage({ id: "frames.form.tags.loadFailed" })}
          <button type="button" className="underline underline-offset-4" onClick={() => void tags.refetch()}>
            {intl.formatMessage({ id: "frames.retry" })}
          </button>
        </p>
      ) : !tags.data ? (
        <p className="text-sm text-muted-foreground" role="status">
          {intl.formatMessage({ id: "frames.form.tags.loading" })}
        </p>
      ) : names.length === 0 ? (
        <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "frames.form.tags.none" })}</p>
      ) : (
        <div className="flex max-h-56 flex-wrap gap-2 overflow-y-auto rounded-md border p-3">
          {names.map((tag) => (
            <label
              key={tag}
              className="flex items-center gap-2 rounded-full border px-3 py-1 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/10"
            >
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={chosen.includes(tag)}
                onChange={(event) => toggle(tag, event.target.checked)}
              />
              {tag}
            </label>
          ))}
        </div>
      )}
      <FieldProblem id={problemId} problem={problem} />
    </fieldset>
  );
}
