import type { FrameDisplay, FrameSelection } from "@memory-box/contract";
import { FrameLimits } from "@memory-box/contract";
import type { WebMessageId } from "@memory-box/messages/web";

/** A frame's name, what it shows and how, as the form holds them (every field, whichever kind is chosen). */
export interface FrameForm {
  name: string;
  kind: FrameSelection["kind"];
  tags: string[];
  from: string;
  to: string;
  clock: boolean;
  dim: boolean;
  nightFrom: string;
  nightTo: string;
}

/** The night a new frame is dimmed, when it is (the member changes it). */
const defaultNight = { from: "22:00", to: "07:00" };

export function formOf(frame: { name: string; selection: FrameSelection; display: FrameDisplay }): FrameForm {
  const { selection, display } = frame;
  return {
    name: frame.name,
    kind: selection.kind,
    tags: selection.kind === "tags" ? [...selection.tags] : [],
    from: selection.kind === "dates" ? (selection.from ?? "") : "",
    to: selection.kind === "dates" ? (selection.to ?? "") : "",
    clock: display.clock,
    dim: display.night !== null,
    nightFrom: display.night?.from ?? defaultNight.from,
    nightTo: display.night?.to ?? defaultNight.to,
  };
}

/** A new frame: everything, no clock, dimmed from 22:00 to 07:00. */
export function newFrameForm(name: string): FrameForm {
  return formOf({ name, selection: { kind: "everything" }, display: { clock: false, night: defaultNight } });
}

/** What is wrong with the form, by field; empty when it can be sent. */
export type FrameFormProblems = Partial<Record<"name" | "tags" | "dates" | "night", WebMessageId>>;

const clockTime = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

export function problemsOf(form: FrameForm): FrameFormProblems {
  const problems: FrameFormProblems = {};
  const name = form.name.trim();
  if (name === "") problems.name = "frames.form.name.required";
  else if (name.length > FrameLimits.nameMaxLength) problems.name = "frames.form.name.tooLong";
  if (form.kind === "tags") {
    if (form.tags.length === 0) problems.tags = "frames.form.tags.required";
    else if (form.tags.length > FrameLimits.maxTags) problems.tags = "frames.form.tags.tooMany";
  }
  if (form.kind === "dates") {
    if (!form.from && !form.to) problems.dates = "frames.form.dates.required";
    else if (form.from && form.to && form.from > form.to) problems.dates = "frames.form.dates.order";
  }
  if (form.dim && (!clockTime.test(form.nightFrom) || !clockTime.test(form.nightTo)))
    problems.night = "frames.form.night.invalid";
  return problems;
}

export function selectionOf(form: FrameForm): FrameSelection {
  switch (form.kind) {
    case "tags":
      return { kind: "tags", tags: form.tags };
    case "dates":
      return { kind: "dates", from: form.from || null, to: form.to || null };
    case "on-this-day":
      return { kind: "on-this-day" };
    case "everything":
      return { kind: "everything" };
  }
}

export function displayOf(form: FrameForm): FrameDisplay {
  return { clock: form.clock, night: form.dim ? { from: form.nightFrom, to: form.nightTo } : null };
}
