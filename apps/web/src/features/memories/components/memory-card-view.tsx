import type { ReactNode } from "react";
import type { Memory } from "@memory-box/contract";
import { Calendar, Pencil, Trash, User } from "lucide-react";
import { Link } from "react-router";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { paths } from "@/config/paths";
import { MemoryPhotosGrid } from "@/features/memories/components/memory-photos-grid";
import { ResponseCounts } from "@/features/memories/components/response-counts";
import { authorName } from "@/features/memories/utils/author-name";
import { formatMemoryDate } from "@/features/memories/utils/memory-dates";
import { hasResponses } from "@/features/memories/utils/responses";
import { cn } from "@/lib/utils";
import { useIntl } from "@/lib/intl";

export interface MemoryCardViewProps {
  memory: Memory;
  /** Photos load at once: the card is on the first screen. */
  eager?: boolean;
  onEdit?: () => void;
  onDelete?: () => void;
  /** The delete button is near: its dialog's code may load. */
  onDeleteNear?: () => void;
  /** The dialogs the buttons open (the app's; nothing on the first screen). */
  deleteDialog?: ReactNode;
  editDialog?: ReactNode;
}

/**
 * One memory in the home grid. The title is the link to the detail page and stretches over the
 * whole card, photos included (they let clicks through to it), so the card is one link target;
 * the edit and delete buttons sit above it. Edit opens the memory form; delete asks for
 * confirmation first. A card with photos leads with them, edge to edge, the words below; a card
 * without lets its description speak, a little larger, in the headings' serif (ADR 0032). Last,
 * its comment and reaction counts when it has any.
 *
 * Without state, so the first screen's script draws it too (ADR 0039); `MemoryCard` adds the dialogs.
 */
export function MemoryCardView({
  memory,
  eager = false,
  onEdit,
  onDelete,
  onDeleteNear,
  deleteDialog,
  editDialog,
}: MemoryCardViewProps) {
  const intl = useIntl();
  const withPhotos = memory.photos.length > 0;
  const tags = memory.tags ?? [];

  return (
    <Card className={cn("relative h-full gap-4 transition-shadow hover:shadow-md", withPhotos && "pt-0")}>
      {withPhotos && (
        <MemoryPhotosGrid
          photos={memory.photos}
          eager={eager}
          className="pointer-events-none rounded-t-[calc(var(--radius-xl)-1px)]"
        />
      )}
      <CardHeader className="flex items-start justify-between gap-2">
        <div className="min-w-0 space-y-1.5">
          <h2 className="text-lg leading-tight font-semibold break-words">
            <Link
              to={paths.memory(memory.id)}
              dir="auto"
              className="outline-none after:absolute after:inset-0 after:rounded-xl after:content-[''] focus-visible:after:ring-[3px] focus-visible:after:ring-ring/50"
            >
              {memory.title}
            </Link>
          </h2>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
            <span className="inline-flex items-center gap-1">
              <User aria-hidden="true" className="size-3.5" />
              <bdi>{authorName(memory)}</bdi>
            </span>
            {memory.memory_date && (
              <span className="inline-flex items-center gap-1">
                <Calendar aria-hidden="true" className="size-3.5" />
                <time dateTime={memory.memory_date}>{formatMemoryDate(memory.memory_date)}</time>
              </span>
            )}
          </div>
        </div>
        <div className="relative z-10 flex shrink-0 gap-1">
          <Button
            variant="ghost"
            size="icon"
            aria-label={intl.formatMessage({ id: "memory.card.edit" }, { title: memory.title })}
            title={intl.formatMessage({ id: "memory.card.editTitle" })}
            onClick={onEdit}
          >
            <Pencil aria-hidden="true" />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            aria-label={intl.formatMessage({ id: "memory.card.delete" }, { title: memory.title })}
            title={intl.formatMessage({ id: "memory.card.deleteTitle" })}
            aria-haspopup="dialog"
            onPointerEnter={onDeleteNear}
            onFocus={onDeleteNear}
            onClick={onDelete}
          >
            <Trash aria-hidden="true" />
          </Button>
          {deleteDialog}
        </div>
      </CardHeader>
      {(memory.content || tags.length > 0 || hasResponses(memory)) && (
        <CardContent className="space-y-3">
          {memory.content && (
            <p
              dir="auto"
              className={cn(
                "break-words whitespace-pre-line",
                withPhotos
                  ? "line-clamp-3 text-sm text-muted-foreground"
                  : "line-clamp-6 font-heading text-base leading-relaxed text-card-foreground",
              )}
            >
              {memory.content}
            </p>
          )}
          {tags.length > 0 && (
            <ul aria-label={intl.formatMessage({ id: "memory.card.tags" })} className="flex flex-wrap gap-1.5">
              {tags.map((tag) => (
                <li key={tag}>
                  <Badge variant="secondary">{tag}</Badge>
                </li>
              ))}
            </ul>
          )}
          <ResponseCounts memory={memory} />
        </CardContent>
      )}
      {editDialog}
    </Card>
  );
}
