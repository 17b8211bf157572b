import { lazyDialog } from "@/components/lazy-dialog";
import type { DeleteMemoryDialogProps } from "@/features/memories/components/delete-memory-dialog";

/** A card's delete question, its code (the alert dialog's) loaded when it is first wanted. */
export const LazyDeleteMemoryDialog = lazyDialog<DeleteMemoryDialogProps>(() =>
  import("@/features/memories/components/delete-memory-dialog").then(({ DeleteMemoryDialog }) => DeleteMemoryDialog),
);
