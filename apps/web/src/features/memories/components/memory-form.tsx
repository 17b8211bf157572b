import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from "react";
import { flushSync } from "react-dom";
import { MemoryLimits, type Memory, type Photo } from "@memory-box/contract";
import { useQueryClient } from "@tanstack/react-query";
import { XIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { ScrollArea } from "@/components/ui/scroll-area";
import { Textarea } from "@/components/ui/textarea";
import { useCreateMemory } from "@/features/memories/api/create-memory";
import { memoryQueryOptions } from "@/features/memories/api/get-memory";
import { isMemoryChanged, useUpdateMemory } from "@/features/memories/api/update-memory";
import { isImageFile, uploadPhotos } from "@/features/memories/api/upload-photo";
import { PhotoImage } from "@/features/memories/components/photo-image";
import { formValuesOf, toMemoryInput, type MemoryFormValues } from "@/features/memories/utils/memory-input";
import { notify } from "@/lib/notify";
import { cn } from "@/lib/utils";

export interface MemoryFormProps {
  /** The memory to edit; without it the form adds a new one. */
  memory?: Memory;
  /** Shown above the fields: the dialog's title, or the page's heading. */
  header?: ReactNode;
  onSaved: (memory: Memory) => void;
  onCancel: () => void;
  /** Told whenever uploading or saving starts or ends, so a container can hold itself open. */
  onBusyChange?: (busy: boolean) => void;
  /** Focus the title on mount (inline editing; a dialog focuses its first field by itself). */
  autoFocus?: boolean;
  className?: string;
}

/** A photo chosen in this form, shown from an object URL; `uploaded` once the server has it. */
interface NewPhoto {
  key: string;
  file: File;
  previewUrl: string;
  uploaded?: Photo;
}

type Phase = "idle" | "uploading" | "saving";

let nextPhotoKey = 0;

/**
 * Add or edit a memory: title, description, date, tags and photos. New photos are uploaded first
 * (two at a time), then the memory is saved with their ids after the kept ones. Photos removed
 * from an existing memory leave with the save: the server drops every photo not listed.
 */
export function MemoryForm({ memory, header, onSaved, onCancel, onBusyChange, autoFocus = false, className }: MemoryFormProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const createMemory = useCreateMemory();
  const updateMemory = useUpdateMemory();
  const editing = memory !== undefined;

  const [values, setValues] = useState<MemoryFormValues>(() => formValuesOf(memory));
  // The copy the edit started from: its version guards the save, its photos are the ones shown.
  const [base, setBase] = useState(() => ({ version: memory?.version, photos: memory?.photos ?? [] }));
  const [removedIds, setRemovedIds] = useState<ReadonlySet<string>>(() => new Set());
  const [newPhotos, setNewPhotos] = useState<NewPhoto[]>([]);
  const [phase, setPhaseState] = useState<Phase>("idle");
  const busyRef = useRef(false);
  const photosRef = useRef<HTMLDivElement>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);

  // Object URLs of the previews live until removed or until the form goes away.
  const objectUrls = useRef(new Set<string>());
  useEffect(() => {
    const urls = objectUrls.current;
    return () => {
      for (const url of urls) URL.revokeObjectURL(url);
      urls.clear();
    };
  }, []);

  const busy = phase !== "idle";
  const keptPhotos = base.photos.filter((photo) => !removedIds.has(photo.id));
  const canSubmit = !busy && values.title.trim() !== "";

  function setPhase(next: Phase) {
    busyRef.current = next !== "idle";
    setPhaseState(next);
    onBusyChange?.(next !== "idle");
  }

  function setField<K extends keyof MemoryFormValues>(field: K) {
    return (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setValues((current) => ({ ...current, [field]: event.target.value }));
  }

  function handleFiles(event: ChangeEvent<HTMLInputElement>) {
    // Only images are uploaded; anything else is skipped without a word (the spec's rule).
    const images = Array.from(event.target.files ?? []).filter(isImageFile);
    // Cleared so choosing the same file again still fires a change.
    event.target.value = "";
    if (images.length === 0) return;
    const added = images.map((file): NewPhoto => {
      const previewUrl = URL.createObjectURL(file);
      objectUrls.current.add(previewUrl);
      return { key: `photo-${nextPhotoKey++}`, file, previewUrl };
    });
    setNewPhotos((current) => [...current, ...added]);
  }

  /** After a removal the focused button is gone: move focus to its neighbour, else the file input. */
  function focusAfterRemoval(group: "existing" | "new", index: number) {
    const buttons = photosRef.current?.querySelectorAll<HTMLButtonElement>(`button[data-remove="${group}"]`);
    const target = buttons && buttons.length > 0 ? buttons[Math.min(index, buttons.length - 1)] : fileInputRef.current;
    target?.focus();
  }

  function removeExisting(photoId: string, index: number) {
    flushSync(() => setRemovedIds((current) => new Set(current).add(photoId)));
    focusAfterRemoval("existing", index);
  }

  function removeNew(photo: NewPhoto, index: number) {
    flushSync(() => setNewPhotos((current) => current.filter((item) => item.key !== photo.key)));
    URL.revokeObjectURL(photo.previewUrl);
    objectUrls.current.delete(photo.previewUrl);
    focusAfterRemoval("new", index);
  }

  async function uploadPending(): Promise<NewPhoto[]> {
    // Photos uploaded by an earlier attempt whose save failed are not sent twice.
    const pending = newPhotos.filter((photo) => photo.uploaded === undefined);
    if (pending.length === 0) return newPhotos;
    setPhase("uploading");
    const results = await uploadPhotos(pending.map((photo) => photo.file));
    const uploaded = new Map<string, Photo>();
    results.forEach((result, index) => {
      if (result.status === "fulfilled") uploaded.set(pending[index]!.key, result.value);
    });
    const next = newPhotos.map((photo) => {
      const done = uploaded.get(photo.key);
      return done ? { ...photo, uploaded: done } : photo;
    });
    setNewPhotos(next);
    if (uploaded.size > 0) notify.success("Photos uploaded!", `${uploaded.size} photo(s) added successfully.`);
    if (uploaded.size < pending.length) notify.error("Upload failed", "Some photos couldn't be uploaded. Please try again.");
    return next;
  }

  /** After a 409: start over from the current copy (its version and photos); the typed fields stay. */
  async function reloadBase(memoryId: string) {
    try {
      const fresh = await queryClient.fetchQuery(memoryQueryOptions(memoryId));
      setBase({ version: fresh.version, photos: fresh.photos });
    } catch {
      // Still the old copy: the next save is refused again rather than overwriting blindly.
    }
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busyRef.current || values.title.trim() === "") return;
    busyRef.current = true;

    const photos = await uploadPending();
    setPhase("saving");
    const photoIds = [
      ...keptPhotos.map((photo) => photo.id),
      ...photos.flatMap((photo) => (photo.uploaded ? [photo.uploaded.id] : [])),
    ];
    const input = toMemoryInput(values, photoIds);

    if (memory === undefined) {
      try {
        const saved = await createMemory.mutateAsync(input);
        notify.success("Memory added!", "Your memory has been saved successfully.");
        setPhase("idle");
        onSaved(saved);
      } catch {
        notify.error("Error", "Failed to save memory. Please try again.");
        setPhase("idle");
      }
      return;
    }

    try {
      const saved = await updateMemory.mutateAsync({ id: memory.id, input, version: base.version });
      notify.success("Memory updated!");
      setPhase("idle");
      onSaved(saved);
    } catch (error) {
      notify.error("Error", "Failed to update memory. Please try again.");
      // Removals happen with the save, so they did not happen either.
      if (removedIds.size > 0) notify.error("Error", "Failed to remove photo.");
      if (isMemoryChanged(error)) await reloadBase(memory.id);
      setPhase("idle");
    }
  }

  const submitLabel =
    phase === "uploading"
      ? "Uploading..."
      : phase === "saving"
        ? editing
          ? "Updating..."
          : "Saving..."
        : editing
          ? "Update Memory"
          : "Save Memory";

  return (
    <Card className={cn("h-[80vh] gap-0 overflow-hidden py-0", className)}>
      <form className="flex h-full min-h-0 flex-col" onSubmit={(event) => void handleSubmit(event)} aria-busy={busy} noValidate>
        {header && <div className="border-b px-6 py-4">{header}</div>}
        <ScrollArea scrollHideDelay={600} className="min-h-0 flex-1">
          <div className="flex flex-col gap-5 px-6 py-4">
            <div className="flex flex-col gap-2">
              <Label htmlFor={`${id}-title`}>Title</Label>
              <Input
                id={`${id}-title`}
                value={values.title}
                onChange={setField("title")}
                maxLength={MemoryLimits.titleMaxLength}
                required
                aria-required="true"
                autoComplete="off"
                autoFocus={autoFocus}
                disabled={busy}
              />
            </div>

            <div className="flex flex-col gap-2">
              <Label htmlFor={`${id}-content`}>Description</Label>
              <Textarea
                id={`${id}-content`}
                value={values.content}
                onChange={setField("content")}
                maxLength={MemoryLimits.contentMaxLength}
                rows={4}
                className="min-h-24"
                disabled={busy}
              />
            </div>

            <div className="flex flex-col gap-2">
              <Label htmlFor={`${id}-date`}>Date</Label>
              <Input id={`${id}-date`} type="date" value={values.memoryDate} onChange={setField("memoryDate")} disabled={busy} />
            </div>

            <div className="flex flex-col gap-2">
              <Label htmlFor={`${id}-tags`}>Tags</Label>
              <Input
                id={`${id}-tags`}
                value={values.tagText}
                onChange={setField("tagText")}
                aria-describedby={`${id}-tags-hint`}
                autoComplete="off"
                disabled={busy}
              />
              <p id={`${id}-tags-hint`} className="text-xs text-muted-foreground">
                Separate tags with commas
              </p>
            </div>

            <div ref={photosRef} className="flex flex-col gap-2">
              <Label htmlFor={`${id}-photos`}>Photos</Label>
              {keptPhotos.length > 0 && (
                <ul aria-label="Current photos" className="grid grid-cols-3 gap-2">
                  {keptPhotos.map((photo, index) => (
                    <li key={photo.id} className="relative">
                      <PhotoImage
                        photo={photo}
                        size="thumbnail"
                        alt={`Memory photo ${index + 1}`}
                        className="aspect-square w-full rounded-md object-cover"
                      />
                      <RemovePhotoButton
                        group="existing"
                        label={`Remove photo ${index + 1}`}
                        disabled={busy}
                        onClick={() => removeExisting(photo.id, index)}
                      />
                    </li>
                  ))}
                </ul>
              )}
              {newPhotos.length > 0 && (
                <ul aria-label="New photos" className="grid grid-cols-3 gap-2">
                  {newPhotos.map((photo, index) => (
                    <li key={photo.key} className="relative">
                      <img
                        src={photo.previewUrl}
                        alt={`New photo ${index + 1}`}
                        className="aspect-square w-full rounded-md bg-muted object-cover"
                      />
                      <RemovePhotoButton
                        group="new"
                        label={`Remove new photo ${index + 1}`}
                        disabled={busy}
                        onClick={() => removeNew(photo, index)}
                      />
                    </li>
                  ))}
                </ul>
              )}
              <Input
                ref={fileInputRef}
                id={`${id}-photos`}
                type="file"
                multiple
                accept="image/*"
                onChange={handleFiles}
                disabled={busy}
              />
            </div>
          </div>
        </ScrollArea>
        <div className="flex justify-end gap-2 border-t px-6 py-4">
          <Button type="button" variant="outline" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={!canSubmit}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </Card>
  );
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
      className="absolute top-1 right-1 size-7 rounded-full focus-visible:ring-offset-2"
    >
      <XIcon aria-hidden="true" />
    </Button>
  );
}
