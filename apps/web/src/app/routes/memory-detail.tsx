import { useState } from "react";
import { useNavigate, useParams } from "react-router";

import { LoadingState } from "@/components/loading-state";
import { paths } from "@/config/paths";
import { useMemoryNeighbours } from "@/features/memories/api/get-neighbours";
import { DeleteMemoryDialog } from "@/features/memories/components/delete-memory-dialog";
import { MemoryDetails } from "@/features/memories/components/memory-details";
import { MemoryEditor } from "@/features/memories/components/memory-editor";
import { MemoryNeighboursNav } from "@/features/memories/components/memory-neighbours";
import { MemoryNotFound } from "@/features/memories/components/memory-not-found";
import { MemoryResponses } from "@/features/memories/components/memory-responses";
import { useLiveUpdates } from "@/features/memories/hooks/use-live-updates";
import { useMemoryPage } from "@/features/memories/hooks/use-memory-page";
import { useIntl } from "@/lib/intl";

/**
 * One memory: its details, an inline edit form ("Edit"), deletion behind a confirmation
 * ("Delete", then home), the members' reactions and comments under it, and the way to the memories before
 * and after it in the list. A memory that does not exist shows "Memory not found."; any other
 * failure to load it is reported and sends the person home.
 */
export function MemoryDetailRoute() {
  const { id = "" } = useParams();
  const intl = useIntl();
  const navigate = useNavigate();
  const { missing, notOnDevice, memory: loaded } = useMemoryPage(id);
  const neighbours = useMemoryNeighbours(id);
  // Someone else's edit shows up here too; their delete turns the page into "Memory not found.".
  useLiveUpdates();
  const [editing, setEditing] = useState(false);
  // Back from editing, focus goes to "Edit" (the button that started it) instead of the page's start.
  const [returnFocus, setReturnFocus] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);

  if (missing || notOnDevice) return <MemoryNotFound notOnDevice={notOnDevice} />;
  if (loaded === undefined) {
    return (
      <div className="min-h-svh bg-muted">
        <LoadingState shape="memory" className="mx-auto max-w-4xl p-4 pt-17">
          {intl.formatMessage({ id: "memory.loading" })}
        </LoadingState>
      </div>
    );
  }
  const memory = loaded;

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
        {!editing && <MemoryResponses memory={memory} />}
        {!editing && neighbours.data && <MemoryNeighboursNav neighbours={neighbours.data} />}
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
