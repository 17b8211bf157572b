import type { Memory } from "@memory-box/contract";
import { CalendarIcon, PencilIcon, Trash2Icon } from "lucide-react";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { BackToMemories } from "@/features/memories/components/back-to-memories";
import { MemoryGallery } from "@/features/memories/components/memory-gallery";
import { formatMemoryDate, formatTimestamp, isSameInstant } from "@/features/memories/utils/memory-dates";
import { usePlaceParts } from "@/features/memories/components/place-parts";
import { useIntl } from "@/lib/intl";

export interface MemoryDetailsProps {
  memory: Memory;
  /** Focus "Edit" on mount: back from editing, focus returns to the button that started it. */
  focusEdit: boolean;
  onEdit: () => void;
  onDelete: () => void;
}

/**
 * The detail page's view of one memory: "Back to Memories", "Edit" and "Delete", then its title,
 * date, place (a small map under it, and a link to the memories near it), description, tags,
 * photos and videos (the gallery, cover first; a photo or video opens in the lightbox over the page,
 * a Live Photo moves on hover or press) and timestamps.
 */
export function MemoryDetails({ memory, focusEdit, onEdit, onDelete }: MemoryDetailsProps) {
  const intl = useIntl();
  const tags = memory.tags ?? [];
  const updated = !isSameInstant(memory.created_at, memory.updated_at);
  const places = usePlaceParts();

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <BackToMemories />
        <div className="flex gap-2">
          <Button variant="outline" onClick={onEdit} autoFocus={focusEdit}>
            <PencilIcon aria-hidden="true" />
            {intl.formatMessage({ id: "memory.detail.edit" })}
          </Button>
          <Button variant="destructive" onClick={onDelete} aria-haspopup="dialog">
            <Trash2Icon aria-hidden="true" />
            {intl.formatMessage({ id: "memory.detail.delete" })}
          </Button>
        </div>
      </div>

      <Card>
        <CardHeader>
          <h1 className="text-2xl font-semibold break-words">
            <bdi>{memory.title}</bdi>
          </h1>
          {memory.memory_date && (
            <p className="flex items-center gap-2 text-muted-foreground">
              <CalendarIcon aria-hidden="true" className="size-4" />
              <time dateTime={memory.memory_date}>{formatMemoryDate(memory.memory_date)}</time>
            </p>
          )}
          {memory.place && places && <places.PlaceLine place={memory.place} />}
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          {memory.photos.length > 0 && (
            <section aria-labelledby="memory-photos" className="flex flex-col gap-2">
              <h2 id="memory-photos" className="text-lg font-semibold">
                {intl.formatMessage({ id: "memory.detail.photos" })}
              </h2>
              <MemoryGallery memory={memory} />
            </section>
          )}
          {memory.place && places && <places.PlaceMap place={memory.place} />}
          {memory.content && (
            <section aria-labelledby="memory-description" className="flex flex-col gap-2">
              <h2 id="memory-description" className="text-lg font-semibold">
                {intl.formatMessage({ id: "memory.detail.description" })}
              </h2>
              <p dir="auto" className="break-words whitespace-pre-wrap">
                {memory.content}
              </p>
            </section>
          )}

          {tags.length > 0 && (
            <section aria-labelledby="memory-tags" className="flex flex-col gap-2">
              <h2 id="memory-tags" className="text-lg font-semibold">
                {intl.formatMessage({ id: "memory.detail.tags" })}
              </h2>
              <ul className="flex flex-wrap gap-2">
                {tags.map((tag) => (
                  <li key={tag}>
                    <Badge variant="secondary">{tag}</Badge>
                  </li>
                ))}
              </ul>
            </section>
          )}

          <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-1 border-t pt-4 text-sm text-muted-foreground">
            <dt>{intl.formatMessage({ id: "memory.detail.created" })}</dt>
            <dd>
              <time dateTime={memory.created_at}>{formatTimestamp(memory.created_at)}</time>
            </dd>
            {updated && (
              <>
                <dt>{intl.formatMessage({ id: "memory.detail.updated" })}</dt>
                <dd>
                  <time dateTime={memory.updated_at}>{formatTimestamp(memory.updated_at)}</time>
                </dd>
              </>
            )}
          </dl>
        </CardContent>
      </Card>
    </>
  );
}
