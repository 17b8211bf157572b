import { useDeleteMemory } from "@/features/memories/api/delete-memory";
import { ConfirmDeleteDialog } from "@/features/memories/components/confirm-delete-dialog";
import { notify } from "@/lib/notify";

export interface DeleteMemoryDialogProps {
  memoryId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After the memory is gone and the success toast is up (the detail page leaves for home). */
  onDeleted: () => void;
}

/**
 * The detail page's "Delete Memory" confirmation. A click outside never dismisses it (Radix's
 * AlertDialog refuses outside interaction by design); while deleting, neither does Escape nor Cancel. A failure closes it, so the error
 * toast is not hidden from screen readers behind the modal, and focus returns to "Delete".
 */
export function DeleteMemoryDialog({ memoryId, open, onOpenChange, onDeleted }: DeleteMemoryDialogProps) {
  const deleteMemory = useDeleteMemory({
    onSuccess: () => {
      notify.success("Memory deleted", "Your memory has been deleted successfully.");
      onDeleted();
    },
    onError: () => {
      notify.error("Error", "Failed to delete memory. Please try again.");
      onOpenChange(false);
    },
  });
  return (
    <ConfirmDeleteDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Delete Memory"
      description="Are you sure you want to delete this memory? This action cannot be undone."
      deleting={deleteMemory.isPending}
      onConfirm={() => deleteMemory.mutate(memoryId)}
    />
  );
}
