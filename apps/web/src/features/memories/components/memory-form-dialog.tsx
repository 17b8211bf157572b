import { useState } from "react";
import type { Memory } from "@memory-box/contract";

import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { MemoryForm } from "@/features/memories/components/memory-form";
import { useReturnFocus } from "@/hooks/use-return-focus";
import { cn } from "@/lib/utils";
import { useIntl } from "@/lib/intl";

/** Wide enough for three photo tiles a row, narrow enough to read as a form. */
const memoryFormDialogWidth = "sm:max-w-xl";

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
 * The memory form in a modal: "Add Memory" or "Edit Memory", one width for both (issue #34: the
 * Add dialog was narrow and the Edit one wide, so the same form jumped in size).
 * Focus is trapped inside and returns to what had it when the dialog closes. While photos upload
 * or the memory saves, Escape and clicks outside are ignored so the work is not cut off.
 */
export function MemoryFormDialog({ open, onOpenChange, memory, onSaved, initialFiles }: MemoryFormDialogProps) {
  const intl = useIntl();
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
        // Escape in a field's open list of suggestions (the place search) closes that list, not the form.
        onEscapeKeyDown={(event) => {
          const target = event.target;
          if (target instanceof HTMLElement && target.matches('[role="combobox"][aria-expanded="true"]')) event.preventDefault();
        }}
        className={cn("gap-0 border-none bg-transparent p-0 shadow-none", memoryFormDialogWidth)}
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
          onSavedMany={
            editing
              ? undefined
              : () => {
                  setBusy(false);
                  onOpenChange(false);
                }
          }
          onSaved={(saved) => {
            setBusy(false);
            onOpenChange(false);
            onSaved?.(saved);
          }}
          header={
            <DialogHeader>
              <DialogTitle>
                {editing
                  ? intl.formatMessage({ id: "memory.form.editTitle" })
                  : intl.formatMessage({ id: "memory.form.addTitle" })}
              </DialogTitle>
              <DialogDescription className="sr-only">
                {editing
                  ? intl.formatMessage({ id: "memory.form.editDescription" })
                  : intl.formatMessage({ id: "memory.form.addDescription" })}
              </DialogDescription>
            </DialogHeader>
          }
        />
      </DialogContent>
    </Dialog>
  );
}
