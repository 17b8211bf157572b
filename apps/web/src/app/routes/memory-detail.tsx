import { useEffect, useRef, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import type { Memory } from "@memory-box/contract";
import { ArrowLeftIcon, CalendarIcon, PencilIcon, Trash2Icon } from "lucide-react";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { paths } from "@/config/paths";
import { isMemoryMissing, useMemory } from "@/features/memories/api/get-memory";
import { DeleteMemoryDialog } from "@/features/memories/components/delete-memory-dialog";
import { MemoryForm } from "@/features/memories/components/memory-form";
import { useLiveUpdates } from "@/features/memories/hooks/use-live-updates";
import { PhotoImage } from "@/features/memories/components/photo-image";
import { formatMemoryDate, formatTimestamp, isSameInstant } from "@/features/memories/utils/memory-dates";
import { notify } from "@/lib/notify";

/**
 * One memory: its details, an inline edit form ("Edit"), and deletion behind a confirmation
 * ("Delete", then home). A memory that does not exist shows "Memory not found."; any other
 * failure to load it is reported and sends the person home.
 */
export function MemoryDetailRoute() {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const query = useMemory(id);
  // Someone else's edit shows up here too; their delete turns the page into "Memory not found.".
  useLiveUpdates();
  const [editing, setEditing] = useState(false);
  // Back from editing, focus goes to "Edit" (the button that started it) instead of the page's start.
  const [returnFocus, setReturnFocus] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);

  const missing = query.isError && isMemoryMissing(query.error);
  // Only a first load that failed: a failed background refetch keeps showing what was loaded.
  const failed = query.isError && !missing && query.data === undefined;
  const reportedFailure = useRef(false);
  useEffect(() => {
    if (!failed || reportedFailure.current) return;
    reportedFailure.current = true;
    notify.error("Error", "Failed to load memory details.");
    void navigate(paths.home, { replace: true });
  }, [failed, navigate]);

  if (missing) return <MemoryNotFound />;
  if (query.data === undefined) {
    return (
      <Spinner className="min-h-svh bg-muted" size="lg">
        Loading memory...
      </Spinner>
    );
  }
  const memory = query.data;

  return (
    <div className="min-h-svh bg-muted">
      <main className="mx-auto flex max-w-4xl flex-col gap-4 p-4">
        {editing ? (
          <MemoryEditor
            key={memory.id}
            memory={memory}
            onDone={() => {
              setEditing(false);
              setReturnFocus(true);
            }}
          />
        ) : (
          <MemoryDetails
            memory={memory}
            focusEdit={returnFocus}
            onEdit={() => setEditing(true)}
            onDelete={() => setDeleteOpen(true)}
          />
        )}
      </main>
      <DeleteMemoryDialog
        memory={memory}
        askedFrom="detail"
        open={deleteOpen}
        onOpenChange={setDeleteOpen}
        onDeleted={() => void navigate(paths.home, { replace: true })}
      />
    </div>
  );
}

function BackToMemories() {
  return (
    <Button asChild variant="ghost">
      <Link to={paths.home}>
        <ArrowLeftIcon aria-hidden="true" />
        Back to Memories
      </Link>
    </Button>
  );
}

function MemoryNotFound() {
  return (
    <div className="min-h-svh bg-muted">
      <main className="mx-auto flex max-w-4xl flex-col items-start gap-4 p-4">
        <BackToMemories />
        <Card className="w-full">
          <CardContent>
            <p className="text-center text-muted-foreground">Memory not found.</p>
          </CardContent>
        </Card>
      </main>
    </div>
  );
}

function MemoryDetails({
  memory,
  focusEdit,
  onEdit,
  onDelete,
}: {
  memory: Memory;
  focusEdit: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const tags = memory.tags ?? [];
  const updated = !isSameInstant(memory.created_at, memory.updated_at);

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <BackToMemories />
        <div className="flex gap-2">
          <Button variant="outline" onClick={onEdit} autoFocus={focusEdit}>
            <PencilIcon aria-hidden="true" />
            Edit
          </Button>
          <Button variant="destructive" onClick={onDelete} aria-haspopup="dialog">
            <Trash2Icon aria-hidden="true" />
            Delete
          </Button>
        </div>
      </div>

      <Card>
        <CardHeader>
          <h1 className="text-2xl font-semibold break-words">{memory.title}</h1>
          {memory.memory_date && (
            <p className="flex items-center gap-2 text-muted-foreground">
              <CalendarIcon aria-hidden="true" className="size-4" />
              <time dateTime={memory.memory_date}>{formatMemoryDate(memory.memory_date)}</time>
            </p>
          )}
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          {memory.content && (
            <section aria-labelledby="memory-description" className="flex flex-col gap-2">
              <h2 id="memory-description" className="text-lg font-semibold">
                Description
              </h2>
              <p className="break-words whitespace-pre-wrap">{memory.content}</p>
            </section>
          )}

          {tags.length > 0 && (
            <section aria-labelledby="memory-tags" className="flex flex-col gap-2">
              <h2 id="memory-tags" className="text-lg font-semibold">
                Tags
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

          {memory.photos.length > 0 && (
            <section aria-labelledby="memory-photos" className="flex flex-col gap-2">
              <h2 id="memory-photos" className="text-lg font-semibold">
                Photos
              </h2>
              <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {memory.photos.map((photo, index) => (
                  <li key={photo.id}>
                    {/* The original, full size, in a new tab. */}
                    <a
                      href={photo.url}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="block overflow-hidden rounded-lg outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
                    >
                      <PhotoImage
                        photo={photo}
                        size="preview"
                        alt={`Memory photo ${index + 1}`}
                        className="aspect-square w-full object-cover transition-transform hover:scale-105"
                      />
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          )}

          <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-1 border-t pt-4 text-sm text-muted-foreground">
            <dt>Created</dt>
            <dd>
              <time dateTime={memory.created_at}>{formatTimestamp(memory.created_at)}</time>
            </dd>
            {updated && (
              <>
                <dt>Updated</dt>
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

/** Edit mode: the form inline. Saving or cancelling returns to the details (saving reloads them). */
function MemoryEditor({ memory, onDone }: { memory: Memory; onDone: () => void }) {
  const [busy, setBusy] = useState(false);

  return (
    <>
      <div>
        <Button variant="ghost" onClick={onDone} disabled={busy}>
          <ArrowLeftIcon aria-hidden="true" />
          Back to Details
        </Button>
      </div>
      <MemoryForm
        memory={memory}
        autoFocus
        onBusyChange={setBusy}
        onCancel={onDone}
        onSaved={onDone}
        header={<h1 className="text-xl font-semibold">Edit Memory</h1>}
      />
    </>
  );
}
