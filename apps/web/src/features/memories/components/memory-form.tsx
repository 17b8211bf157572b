import { Suspense, useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from "react";
import { flushSync } from "react-dom";
import { latestMemoryYear, MemoryLimits, PlaceLimits, type GeoPoint, type Memory, type Photo } from "@memory-box/contract";
import { CalendarIcon, XIcon } from "lucide-react";

import { preloadToaster } from "@/components/toaster-loader";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { ScrollArea } from "@/components/ui/scroll-area";
import { Textarea } from "@/components/ui/textarea";
import { CaptureDaysStep } from "@/features/memories/components/capture-days-step";
import { MediaMark } from "@/features/memories/components/media-mark";
import { NewPhotoTile } from "@/features/memories/components/new-photo-tile";
import { PhotoImage } from "@/features/memories/components/photo-image";
import { SaveProblemAlert } from "@/features/memories/components/save-problem-alert";
import { TagsField } from "@/features/memories/components/tags-field";
import { useCaptureDays } from "@/features/memories/hooks/use-capture-days";
import { usePhotoPicker, type NewPhoto } from "@/features/memories/hooks/use-photo-picker";
import { useSaveMemory } from "@/features/memories/hooks/use-save-memory";
import { mediaAccept, mediaLabel } from "@/features/memories/utils/media";
import { formatMemoryDate } from "@/features/memories/utils/memory-dates";
import { formValuesOf, type MemoryFormValues, type MemoryTextField } from "@/features/memories/utils/memory-input";
import { lengthCount, tagCount } from "@/features/memories/utils/memory-rules";
import { usePlaceParts } from "@/features/memories/components/place-parts";
import { cn } from "@/lib/utils";
import { useIntl } from "@/lib/intl";

export interface MemoryFormProps {
  /** The memory to edit; without it the form adds a new one. */
  memory?: Memory;
  /** Shown above the fields: the dialog's title, or the page's heading. */
  header?: ReactNode;
  onSaved: (memory: Memory) => void;
  onCancel: () => void;
  /** Told whenever uploading or saving starts or ends, so a container can hold itself open. */
  onBusyChange?: (busy: boolean) => void;
  /** A new memory saved offline was kept on this device, to be added when the connection returns. */
  onQueued?: () => void;
  /** Photos to start with, as if the member had just chosen them (photos shared to the app). */
  initialFiles?: readonly File[];
  /**
   * Photos of 2 to 31 capture days became one memory per day (ADR 0063). Without it, a new
   * memory's form never offers that step.
   */
  onSavedMany?: (memories: Memory[]) => void;
  /** Focus the title on mount (inline editing; a dialog focuses its first field by itself). */
  autoFocus?: boolean;
  className?: string;
}

/**
 * Add or edit a memory: title, description, date, place, tags and photos. The photos live in
 * `usePhotoPicker` and the save (new photos uploaded first, then the memory) in `useSaveMemory`;
 * the form holds the field values and keeps focus in place when a photo is removed.
 */
export function MemoryForm({
  memory,
  header,
  onSaved,
  onCancel,
  onBusyChange,
  onQueued,
  initialFiles,
  onSavedMany,
  autoFocus = false,
  className,
}: MemoryFormProps) {
  const intl = useIntl();
  const id = useId();
  const editing = memory !== undefined;
  const [values, setValues] = useState<MemoryFormValues>(() => formValuesOf(memory));
  const photos = usePhotoPicker(memory?.photos);
  const { phase, busy, problem, save } = useSaveMemory({
    memory,
    photos,
    onSaved,
    onValuesMerged: setValues,
    onBusyChange,
    onQueued,
  });
  // While the memory itself is sent nothing changes; while photos finish uploading, they can still be cancelled.
  const saving = phase === "saving";
  const fieldProblems = problem?.kind === "fields" ? problem.fields : {};
  const photoDate = values.memoryDate === "" ? captureDateOf(photos.keptPhotos, photos.newPhotos) : undefined;
  // Issue #34: the first added photo's capture date fills an empty date, unless the member has
  // typed in the date field (a date, or cleared one): what they typed is never overwritten.
  const [dateTyped, setDateTyped] = useState(false);
  const [filledDate, setFilledDate] = useState<string | undefined>(undefined);
  const addedPhotoDate = captureDateOf([], photos.newPhotos);
  if (addedPhotoDate && !dateTyped && values.memoryDate === "" && filledDate === undefined) {
    setFilledDate(addedPhotoDate);
    setValues((current) => (current.memoryDate === "" ? { ...current, memoryDate: addedPhotoDate } : current));
  }
  const photoLocation = values.place === null ? locationOf(photos.keptPhotos, photos.newPhotos) : null;
  // Said beside the date while it is the one taken from the photo.
  const filledFrom = !dateTyped && filledDate !== undefined && values.memoryDate === filledDate;
  // "12 photos from 3 days → 3 memories?": asked of a new memory's photos before the member has begun to write one.
  const untouched = values.title === "" && values.content === "" && values.tagText === "" && values.place === null && !dateTyped;
  const captureDays = useCaptureDays({
    photos,
    allowed: !editing && onSavedMany !== undefined && untouched && !busy,
    onSavedMany: (memories) => onSavedMany?.(memories),
    onBusyChange,
  });
  const titleRef = useRef<HTMLInputElement>(null);
  const PlaceField = usePlaceParts()?.PlaceField;
  const photosRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  // Whatever happens to the save, a toast will say so, even if the connection drops meanwhile.
  useEffect(preloadToaster, []);

  // Shared photos go through the picker's own door, once: the same checks, uploads and texts.
  const initialFilesTaken = useRef(false);
  useEffect(() => {
    if (initialFilesTaken.current || !initialFiles?.length) return;
    initialFilesTaken.current = true;
    photos.addFiles(initialFiles);
  }, [initialFiles, photos]);

  // A save refused for a field's rule takes the member to the first such field.
  useEffect(() => {
    if (problem?.kind === "fields") formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [problem]);
  const fileInputRef = useRef<HTMLInputElement>(null);

  const canSubmit = !busy && values.title.trim() !== "";

  function setField<K extends MemoryTextField>(field: K) {
    return (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setValues((current) => ({ ...current, [field]: event.target.value }));
  }

  function handleFiles(event: ChangeEvent<HTMLInputElement>) {
    photos.addFiles(Array.from(event.target.files ?? []));
    // Cleared so choosing the same file again still fires a change.
    event.target.value = "";
  }

  /** After a removal the focused button is gone: move focus to its neighbour, else the file input. */
  function focusAfterRemoval(group: "existing" | "new", index: number) {
    const buttons = photosRef.current?.querySelectorAll<HTMLButtonElement>(`button[data-remove="${group}"]`);
    const target = buttons && buttons.length > 0 ? buttons[Math.min(index, buttons.length - 1)] : fileInputRef.current;
    target?.focus();
  }

  function removeExisting(photoId: string, index: number) {
    photos.removeExisting(photoId);
    focusAfterRemoval("existing", index);
  }

  function removeNew(photo: NewPhoto, index: number) {
    photos.removeNew(photo);
    focusAfterRemoval("new", index);
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (values.title.trim() === "") return;
    void save(values);
  }

  /** Props that tie a field to its rule problem and its count. */
  function describedField(field: keyof MemoryFormValues, ...hints: (string | false)[]) {
    const ids = [...hints.filter(Boolean), fieldProblems[field] && `${id}-${field}-problem`].filter(Boolean);
    return {
      "aria-invalid": fieldProblems[field] ? true : undefined,
      "aria-describedby": ids.length > 0 ? ids.join(" ") : undefined,
    };
  }

  const submitLabel =
    phase === "uploading"
      ? intl.formatMessage({ id: "memory.form.uploading" })
      : phase === "saving"
        ? editing
          ? intl.formatMessage({ id: "memory.form.updating" })
          : intl.formatMessage({ id: "memory.form.saving" })
        : editing
          ? intl.formatMessage({ id: "memory.form.update" })
          : intl.formatMessage({ id: "memory.form.save" });

  /** Declined: the form, with every photo in one memory; focus goes to its first field. */
  function declineCaptureDays() {
    flushSync(captureDays.decline);
    titleRef.current?.focus();
  }

  if (captureDays.offered)
    return (
      <Card className={cn("h-[80vh] gap-0 overflow-hidden py-0", className)}>
        <div className="flex h-full min-h-0 flex-col">
          {header && <div className="border-b px-6 py-4">{header}</div>}
          <CaptureDaysStep
            days={captureDays.offered}
            sending={captureDays.sending}
            problem={captureDays.problem}
            onAccept={() => void captureDays.accept()}
            onDecline={declineCaptureDays}
          />
        </div>
      </Card>
    );

  return (
    <Card className={cn("h-[80vh] gap-0 overflow-hidden py-0", className)}>
      <form ref={formRef} className="flex h-full min-h-0 flex-col" onSubmit={handleSubmit} aria-busy={busy} noValidate>
        {header && <div className="border-b px-6 py-4">{header}</div>}
        <ScrollArea scrollHideDelay={600} className="min-h-0 flex-1">
          <div className="flex flex-col gap-5 px-6 py-4">
            <div className="flex flex-col gap-2">
              <Label htmlFor={`${id}-title`}>{intl.formatMessage({ id: "memory.form.title" })}</Label>
              <Input
                ref={titleRef}
                id={`${id}-title`}
                value={values.title}
                onChange={setField("title")}
                maxLength={MemoryLimits.titleMaxLength}
                required
                aria-required="true"
                autoComplete="off"
                autoFocus={autoFocus}
                disabled={busy}
                {...describedField(
                  "title",
                  lengthCount(values.title, MemoryLimits.titleMaxLength) !== undefined && `${id}-title-count`,
                )}
              />
              <FieldNotes
                id={id}
                field="title"
                count={lengthCount(values.title, MemoryLimits.titleMaxLength)}
                problem={fieldProblems.title}
              />
            </div>

            <div className="flex flex-col gap-2">
              <Label htmlFor={`${id}-content`}>{intl.formatMessage({ id: "memory.form.description" })}</Label>
              <Textarea
                id={`${id}-content`}
                value={values.content}
                onChange={setField("content")}
                maxLength={MemoryLimits.contentMaxLength}
                rows={4}
                className="min-h-24"
                disabled={busy}
                {...describedField(
                  "content",
                  lengthCount(values.content, MemoryLimits.contentMaxLength) !== undefined && `${id}-content-count`,
                )}
              />
              <FieldNotes
                id={id}
                field="content"
                count={lengthCount(values.content, MemoryLimits.contentMaxLength)}
                problem={fieldProblems.content}
              />
            </div>

            <div className="flex flex-col gap-2">
              <Label htmlFor={`${id}-date`}>{intl.formatMessage({ id: "memory.form.date" })}</Label>
              <Input
                id={`${id}-date`}
                type="date"
                min={`${MemoryLimits.earliestYear}-01-01`}
                max={`${latestMemoryYear()}-12-31`}
                value={values.memoryDate}
                onChange={(event) => {
                  setDateTyped(true);
                  setField("memoryDate")(event);
                }}
                disabled={busy}
                {...describedField("memoryDate", filledFrom && `${id}-date-filled`)}
              />
              {filledFrom && (
                <p id={`${id}-date-filled`} className="text-xs text-muted-foreground">
                  {intl.formatMessage({ id: "memory.form.dateFromPhoto" })}
                </p>
              )}
              {photoDate && (
                <div>
                  <Button
                    type="button"
                    variant="outline"
                    size="sm"
                    disabled={busy}
                    onClick={() => setValues((current) => ({ ...current, memoryDate: photoDate }))}
                  >
                    <CalendarIcon aria-hidden="true" />
                    {intl.formatMessage({ id: "memory.form.usePhotoDate" }, { date: formatMemoryDate(photoDate) })}
                  </Button>
                </div>
              )}
              <FieldNotes id={id} field="memoryDate" problem={fieldProblems.memoryDate} />
            </div>

            {PlaceField && (
              <Suspense fallback={null}>
                <PlaceField
                  id={`${id}-place`}
                  value={values.place}
                  onChange={(place) => setValues((current) => ({ ...current, place }))}
                  photoLocation={photoLocation}
                  disabled={busy}
                  problem={fieldProblems.place}
                  count={values.place ? lengthCount(values.place.name, PlaceLimits.nameMaxLength) : undefined}
                />
              </Suspense>
            )}

            <div className="flex flex-col gap-2">
              <Label htmlFor={`${id}-tags`}>{intl.formatMessage({ id: "memory.form.tags" })}</Label>
              <TagsField
                id={`${id}-tags`}
                value={values.tagText}
                onChange={(tagText) => setValues((current) => ({ ...current, tagText }))}
                disabled={busy}
                invalid={Boolean(fieldProblems.tagText)}
                describedBy={
                  describedField(
                    "tagText",
                    `${id}-tags-hint`,
                    `${id}-tags-limits`,
                    tagCount(values.tagText) !== undefined && `${id}-tagText-count`,
                  )["aria-describedby"]
                }
              />
              <p id={`${id}-tags-hint`} className="text-xs text-muted-foreground">
                {intl.formatMessage({ id: "memory.form.tagsHint" })}
              </p>
              <p id={`${id}-tags-limits`} className="text-xs text-muted-foreground">
                {intl.formatMessage(
                  { id: "memory.form.tagsLimits" },
                  { maxTags: MemoryLimits.maxTags, maxLength: MemoryLimits.tagMaxLength },
                )}
              </p>
              <FieldNotes id={id} field="tagText" count={tagCount(values.tagText)} problem={fieldProblems.tagText} />
            </div>

            <div ref={photosRef} className="flex flex-col gap-2">
              <Label htmlFor={`${id}-photos`}>{intl.formatMessage({ id: "memory.form.photos" })}</Label>
              {photos.keptPhotos.length > 0 && (
                <ul aria-label={intl.formatMessage({ id: "memory.form.currentPhotos" })} className="grid grid-cols-3 gap-2">
                  {photos.keptPhotos.map((photo, index) => (
                    <li key={photo.id} className="relative">
                      <PhotoImage
                        photo={photo}
                        size="thumbnail"
                        alt={mediaLabel(photo, index + 1, intl)}
                        className="aspect-square w-full rounded-md object-cover"
                      />
                      <MediaMark photo={photo} small />
                      <RemovePhotoButton
                        group="existing"
                        label={intl.formatMessage({ id: "memory.form.removePhoto" }, { number: index + 1 })}
                        disabled={busy}
                        onClick={() => removeExisting(photo.id, index)}
                      />
                    </li>
                  ))}
                </ul>
              )}
              {photos.newPhotos.length > 0 && (
                <ul aria-label={intl.formatMessage({ id: "memory.form.newPhotos" })} className="grid grid-cols-3 gap-2">
                  {photos.newPhotos.map((photo, index) => (
                    <NewPhotoTile
                      key={photo.key}
                      photo={photo}
                      number={index + 1}
                      disabled={busy}
                      online={photos.online}
                      onRemove={() => removeNew(photo, index)}
                    />
                  ))}
                </ul>
              )}
              <Input
                ref={fileInputRef}
                id={`${id}-photos`}
                type="file"
                multiple
                accept={mediaAccept}
                onChange={handleFiles}
                disabled={busy}
                aria-describedby={`${id}-photos-hint`}
              />
              <p id={`${id}-photos-hint`} className="text-xs text-muted-foreground">
                {intl.formatMessage({ id: "memory.form.mediaHint" })}
              </p>
            </div>
          </div>
        </ScrollArea>
        {problem && problem.kind !== "fields" && (
          <div className="max-h-[40%] overflow-y-auto border-t px-6 py-3">
            <SaveProblemAlert
              problem={problem}
              values={values}
              failedPhotoCount={photos.failedPhotos.length}
              disabled={busy}
              onRetryUploads={photos.retryFailed}
              onRemoveFailed={photos.removeFailed}
              onSaveWithoutFailed={() => void save(values, { withoutFailedPhotos: true })}
              onUseTheirs={(change) => setValues((current) => ({ ...current, [change.field]: change.theirsValue }))}
            />
          </div>
        )}
        <div className="flex justify-end gap-2 border-t px-6 py-4">
          <Button type="button" variant="outline" onClick={onCancel} disabled={saving}>
            {intl.formatMessage({ id: "common.cancel" })}
          </Button>
          <Button type="submit" disabled={!canSubmit}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** Under a field: its count near the limit, and the rule it breaks (from the form's check or the server). */
function FieldNotes({
  id,
  field,
  count,
  problem,
}: {
  id: string;
  field: keyof MemoryFormValues;
  count?: string;
  problem?: string;
}) {
  if (count === undefined && problem === undefined) return null;
  return (
    <div className="flex items-start justify-between gap-2 text-xs">
      <p id={`${id}-${field}-problem`} className="text-destructive">
        {problem}
      </p>
      {count !== undefined && (
        <p id={`${id}-${field}-count`} className="shrink-0 text-muted-foreground tabular-nums">
          {count}
        </p>
      )}
    </div>
  );
}

/**
 * The capture date ("2024-06-01") of the first photo or video that has one (the server reads both),
 * kept ones first, then the chosen ones in the order they were chosen. Not known yet while a photo
 * before it is still uploading: uploads finish in any order, and a later photo's date must not
 * take the place of the first one's. A photo whose upload failed is passed over.
 */
function captureDateOf(kept: readonly Photo[], chosen: readonly NewPhoto[]): string | undefined {
  const dateOf = (photo: Photo) => /^\d{4}-\d{2}-\d{2}/.exec(photo.taken_at ?? "")?.[0];
  for (const photo of kept) {
    const date = dateOf(photo);
    if (date) return date;
  }
  for (const { upload } of chosen) {
    if (upload.status === "failed") continue;
    if (upload.status !== "uploaded") return undefined;
    const date = dateOf(upload.photo);
    if (date) return date;
  }
  return undefined;
}

/** Where the first photo or video that has a location was taken (kept ones first), to offer as the memory's place. */
function locationOf(kept: readonly Photo[], chosen: readonly NewPhoto[]): GeoPoint | null {
  const uploaded = chosen.flatMap((photo) => (photo.upload.status === "uploaded" ? [photo.upload.photo] : []));
  return [...kept, ...uploaded].find((photo) => photo.location)?.location ?? null;
}

function RemovePhotoButton({
  group,
  label,
  disabled,
  onClick,
}: {
  group: "existing" | "new";
  label: string;
  disabled: boolean;
  onClick: () => void;
}) {
  return (
    <Button
      type="button"
      variant="destructive"
      size="icon"
      data-remove={group}
      aria-label={label}
      disabled={disabled}
      onClick={onClick}
      className="absolute end-1 top-1 size-7 rounded-full focus-visible:ring-offset-2"
    >
      <XIcon aria-hidden="true" />
    </Button>
  );
}
