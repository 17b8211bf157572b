import { useState } from "react";
import type { Memory } from "@memory-box/contract";

import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { MemoryForm } from "@/features/memories/components/memory-form";
import { useReturnFocus } from "@/hooks/use-return-focus";
import { cn } from "@/lib/utils";

export interface MemoryFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The memory to edit; undefined to add a new one. */
  memory?: Memory;
  /** After a successful save, once the dialog has closed. */
  onSaved?: (memory: Memory) => void;
  /** Photos the new memory starts with, as if just chosen (photos shared to the app). */
  initialFiles?: readonly File[];
}

/**
 * The memory form in a modal: "Add Memory" (a narrow dialog, as the spec asks) or "Edit Memory".
 * Focus is trapped inside and returns to what had it when the dialog closes. While photos upload
 * or the memory saves, Escape and clicks outside are ignored so the work is not cut off.
 */
export function MemoryFormDialog({ open, onOpenChange, memory, onSaved, initialFiles }: MemoryFormDialogProps) {
  const [busy, setBusy] = useState(false);
  const editing = memory !== undefined;
  const returnFocus = useReturnFocus();

  function handleOpenChange(next: boolean) {
    if (!next && busy) return;
    onOpenChange(next);
  }

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent
        showCloseButton={false}
        {...returnFocus}
        className={cn("gap-0 border-none bg-transparent p-0 shadow-none", editing ? "sm:max-w-2xl" : "sm:max-w-md")}
      >
        {/* A fresh form per memory; closing the dialog unmounts it, so every opening starts clean. */}
        <MemoryForm
          key={memory?.id ?? "new"}
          memory={memory}
          onBusyChange={setBusy}
          initialFiles={initialFiles}
          onQueued={() => {
            setBusy(false);
            onOpenChange(false);
          }}
          onCancel={() => onOpenChange(false)}
          onSaved={(saved) => {
            setBusy(false);
            onOpenChange(false);
            onSaved?.(saved);
          }}
          header={
            <DialogHeader>
              <DialogTitle>{editing ? "Edit Memory" : "Add Memory"}</DialogTitle>
              <DialogDescription className="sr-only">
                {editing
                  ? "Change the title, description, date, tags or photos of this memory."
                  : "Give the memory a title, and add a description, date, tags and photos if you like."}
              </DialogDescription>
            </DialogHeader>
          }
        />
      </DialogContent>
    </Dialog>
  );
}
