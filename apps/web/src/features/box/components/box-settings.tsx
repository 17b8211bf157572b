import { useId, useState, type FormEvent } from "react";
import { BoxLimits, type BoxCover, type BoxSettings, type MemoryPage } from "@memory-box/contract";
import { useInfiniteQuery } from "@tanstack/react-query";

import { FieldProblem } from "@/components/field-problem";
import { LoadingState } from "@/components/loading-state";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useBox, useChangeBox } from "@/features/box/api/box";
import { ApiError, apiFetch } from "@/lib/api-client";
import { dateTimeFormat, useIntl } from "@/lib/intl";
import { notify } from "@/lib/notify";
import { cn } from "@/lib/utils";

const maxName = BoxLimits.nameMaxLength;
const earliestDay = `${BoxLimits.earliestYear}-01-01`;

/**
 * Settings → "Our box" (ADR 0065): owners name the box, choose its cover among the collection's
 * photos (or none) and the day they have been together since; members see the same, read-only.
 */
export function BoxSettingsPanel({ owner }: { owner: boolean | undefined }) {
  const intl = useIntl();
  const box = useBox();
  if (box.isError) {
    return <p className="text-sm text-destructive">{intl.formatMessage({ id: "settings.box.loadFailed" })}</p>;
  }
  if (!box.data || owner === undefined)
    return <LoadingState shape="rows">{intl.formatMessage({ id: "settings.box.loading" })}</LoadingState>;
  // A new form after each save (here or by the other owner), so it starts from what is saved.
  return owner ? <BoxForm key={box.data.updated_at ?? "unset"} box={box.data} /> : <BoxReadOnly box={box.data} />;
}

/** What a member sees: each value, or that it is not set, and who may change them. */
function BoxReadOnly({ box }: { box: BoxSettings }) {
  const intl = useIntl();
  const notSet = <span className="text-muted-foreground">{intl.formatMessage({ id: "settings.box.notSet" })}</span>;
  return (
    <div className="flex flex-col gap-4">
      <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-medium">{intl.formatMessage({ id: "settings.box.name" })}</dt>
        <dd className="break-words">{box.name ?? notSet}</dd>
        <dt className="font-medium">{intl.formatMessage({ id: "settings.box.cover" })}</dt>
        <dd>
          {box.cover ? (
            <img
              src={box.cover.thumbnail_url}
              alt={intl.formatMessage({ id: "settings.box.coverAlt" })}
              width={80}
              height={80}
              className="size-20 rounded-md bg-muted object-cover"
            />
          ) : (
            notSet
          )}
        </dd>
        <dt className="font-medium">{intl.formatMessage({ id: "settings.box.since" })}</dt>
        <dd>{box.together_since ? <time dateTime={box.together_since}>{formatDay(box.together_since)}</time> : notSet}</dd>
      </dl>
      <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "settings.box.ownersOnly" })}</p>
    </div>
  );
}

type Field = "name" | "cover" | "since";

/** The owner's form: all three saved at once; each rule shown at its field and checked before sending. */
function BoxForm({ box }: { box: BoxSettings }) {
  const id = useId();
  const intl = useIntl();
  const [name, setName] = useState(box.name ?? "");
  const [coverId, setCoverId] = useState<string | null>(box.cover?.id ?? null);
  const [since, setSince] = useState(box.together_since ?? "");
  const [problems, setProblems] = useState<Partial<Record<Field | "form", string>>>({});
  const change = useChangeBox();
  const today = localToday();
  const trimmed = name.trim();
  const nameTooLong = trimmed.length > maxName;
  const sinceProblem =
    since === ""
      ? undefined
      : !/^\d{4}-\d{2}-\d{2}$/.test(since) || since < earliestDay
        ? intl.formatMessage({ id: "settings.box.sinceTooEarly" }, { year: BoxLimits.earliestYear })
        : since > today
          ? intl.formatMessage({ id: "settings.box.sinceFuture" })
          : undefined;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (nameTooLong || sinceProblem !== undefined || change.isPending) return;
    setProblems({});
    change.mutate(
      { name: trimmed === "" ? null : trimmed, cover_photo_id: coverId, together_since: since === "" ? null : since },
      {
        onSuccess: () => notify.success(intl.formatMessage({ id: "settings.box.saved" })),
        onError: (error) => setProblems(problemsOf(error, intl.formatMessage({ id: "settings.box.failed" }))),
      },
    );
  }

  const nameId = `${id}-name`;
  const sinceId = `${id}-since`;
  return (
    <form className="flex flex-col gap-6" onSubmit={handleSubmit} noValidate>
      <div className="flex flex-col gap-2">
        <Label htmlFor={nameId}>{intl.formatMessage({ id: "settings.box.name" })}</Label>
        <Input
          id={nameId}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setProblems(({ name: _, ...rest }) => rest);
          }}
          aria-invalid={nameTooLong || problems.name !== undefined || undefined}
          aria-describedby={`${nameId}-rule`}
        />
        <p id={`${nameId}-rule`} className={nameTooLong ? "text-sm text-destructive" : "text-sm text-muted-foreground"}>
          {intl.formatMessage({ id: "settings.box.nameHint" }, { count: trimmed.length, max: maxName })}
        </p>
        <FieldProblem problem={problems.name} />
      </div>
      <CoverChoice current={box.cover} value={coverId} onChange={setCoverId} problem={problems.cover} />
      <div className="flex flex-col gap-2">
        <Label htmlFor={sinceId}>{intl.formatMessage({ id: "settings.box.since" })}</Label>
        <Input
          id={sinceId}
          type="date"
          className="w-auto self-start"
          value={since}
          min={earliestDay}
          max={today}
          onChange={(event) => {
            setSince(event.target.value);
            setProblems(({ since: _, ...rest }) => rest);
          }}
          aria-invalid={sinceProblem !== undefined || problems.since !== undefined || undefined}
          aria-describedby={`${sinceId}-rule`}
        />
        <p id={`${sinceId}-rule`} className="text-sm text-muted-foreground">
          {intl.formatMessage({ id: "settings.box.sinceHint" })}
        </p>
        <FieldProblem problem={sinceProblem ?? problems.since} />
      </div>
      <FieldProblem problem={problems.form} />
      <Button type="submit" className="self-start" disabled={nameTooLong || sinceProblem !== undefined || change.isPending}>
        {intl.formatMessage({ id: change.isPending ? "settings.box.saving" : "settings.box.save" })}
      </Button>
    </form>
  );
}

/** A photo to choose as the cover: one of a memory's stills (a video has no still of its own). */
interface CoverOption {
  id: string;
  thumbnailUrl: string;
  title: string;
}

/** Memories a page of the picker reads, and photos it shows more at a time (a memory may hold a hundred). */
const coverPageSize = 30;

/** The collection's photos, newest memories first, a page at a time. */
function useCoverOptions() {
  return useInfiniteQuery({
    queryKey: ["box-cover-options"],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      apiFetch<MemoryPage>(
        `/api/v1/memories?limit=${coverPageSize}${pageParam === null ? "" : `&cursor=${encodeURIComponent(pageParam)}`}`,
        { signal },
      ),
    getNextPageParam: (page) => page.next_cursor,
  });
}

/** "No cover", or one of the collection's photos, as radio buttons; the saved cover is always among them. */
function CoverChoice({
  current,
  value,
  onChange,
  problem,
}: {
  current: BoxCover | null;
  value: string | null;
  onChange: (id: string | null) => void;
  problem: string | undefined;
}) {
  const intl = useIntl();
  const name = useId();
  const pages = useCoverOptions();
  const [shown, setShown] = useState(coverPageSize);
  const options: CoverOption[] = [];
  const seen = new Set<string>();
  const add = (option: CoverOption) => {
    if (seen.has(option.id)) return;
    seen.add(option.id);
    options.push(option);
  };
  if (current) add({ id: current.id, thumbnailUrl: current.thumbnail_url, title: "" });
  for (const page of pages.data?.pages ?? []) {
    for (const memory of page.items) {
      for (const photo of memory.photos) {
        if (photo.kind === "video" || photo.status === "failed") continue;
        add({ id: photo.id, thumbnailUrl: photo.thumbnail_url, title: memory.title });
      }
    }
  }
  const tile =
    "block overflow-hidden rounded-md ring-offset-2 ring-offset-background peer-checked:ring-3 peer-checked:ring-primary peer-focus-visible:outline-2 peer-focus-visible:outline-offset-4 peer-focus-visible:outline-ring";

  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium">{intl.formatMessage({ id: "settings.box.cover" })}</legend>
      <div className="grid grid-cols-3 gap-3 sm:grid-cols-5">
        <label className="relative cursor-pointer">
          <input type="radio" name={name} className="peer sr-only" checked={value === null} onChange={() => onChange(null)} />
          <span className={cn(tile, "flex aspect-square items-center justify-center border bg-muted p-2 text-center text-sm")}>
            {intl.formatMessage({ id: "settings.box.noCover" })}
          </span>
        </label>
        {options.slice(0, shown).map((option) => (
          <label key={option.id} className="relative cursor-pointer">
            <input
              type="radio"
              name={name}
              className="peer sr-only"
              checked={value === option.id}
              onChange={() => onChange(option.id)}
            />
            <img
              src={option.thumbnailUrl}
              alt={
                option.title === ""
                  ? intl.formatMessage({ id: "settings.box.coverAlt" })
                  : intl.formatMessage({ id: "settings.box.coverOption" }, { title: option.title })
              }
              loading="lazy"
              width={120}
              height={120}
              className={cn(tile, "aspect-square w-full bg-muted object-cover")}
            />
          </label>
        ))}
      </div>
      {pages.isError && <p className="text-sm text-destructive">{intl.formatMessage({ id: "settings.box.photosFailed" })}</p>}
      {(options.length > shown || pages.hasNextPage) && (
        <Button
          type="button"
          variant="outline"
          className="self-start"
          disabled={pages.isFetchingNextPage}
          onClick={() => {
            setShown((count) => count + coverPageSize);
            if (options.length < shown + coverPageSize && pages.hasNextPage) void pages.fetchNextPage();
          }}
        >
          {intl.formatMessage({ id: "settings.box.morePhotos" })}
        </Button>
      )}
      <FieldProblem problem={problem} />
    </fieldset>
  );
}

/** The server's refusal said at the field it names, anything else under the form. */
function problemsOf(error: Error, fallback: string): Partial<Record<Field | "form", string>> {
  if (!(error instanceof ApiError) || error.fieldErrors.length === 0) return { form: error.message || fallback };
  const fields: Record<string, Field> = { "body.name": "name", "body.cover_photo_id": "cover", "body.together_since": "since" };
  const problems: Partial<Record<Field | "form", string>> = {};
  for (const { path, message } of error.fieldErrors) problems[fields[path] ?? "form"] ??= message;
  return problems;
}

/** Today on this device's calendar, "YYYY-MM-DD". */
function localToday(now = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** "June 1, 2019", from the calendar date's parts (never midnight UTC, which is the day before in the west). */
function formatDay(value: string): string {
  const [year, month, day] = value.split("-").map(Number) as [number, number, number];
  const date = new Date(2000, month - 1, day);
  date.setFullYear(year);
  return dateTimeFormat({ year: "numeric", month: "long", day: "numeric" }).format(date);
}
