import { useState } from "react";
import type { Memory } from "@memory-box/contract";

import { LazyDeleteMemoryDialog } from "@/features/memories/components/lazy-delete-memory-dialog";
import { LazyMemoryFormDialog } from "@/features/memories/components/lazy-memory-form-dialog";
import { MemoryCardView } from "@/features/memories/components/memory-card-view";

export interface MemoryCardProps {
  memory: Memory;
  /** Photos load at once: the card is on the first screen. */
  eager?: boolean;
}

/** One memory in the home grid (`MemoryCardView`), with its edit and delete dialogs. */
export function MemoryCard({ memory, eager = false }: MemoryCardProps) {
  const [editing, setEditing] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  return (
    <MemoryCardView
      memory={memory}
      eager={eager}
      onEdit={() => setEditing(true)}
      onDelete={() => setConfirmingDelete(true)}
      onDeleteNear={LazyDeleteMemoryDialog.preload}
      deleteDialog={
        <LazyDeleteMemoryDialog memory={memory} askedFrom="card" open={confirmingDelete} onOpenChange={setConfirmingDelete} />
      }
      editDialog={<LazyMemoryFormDialog open={editing} onOpenChange={setEditing} memory={memory} />}
    />
  );
}
