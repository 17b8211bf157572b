import { lazyDialog } from "@/components/lazy-dialog";
import type { MemoryFormDialogProps } from "@/features/memories/components/memory-form-dialog";

/** The memory form dialog (uploads, conflict merge, rules), its code loaded the first time it opens. */
export const LazyMemoryFormDialog = lazyDialog<MemoryFormDialogProps>(() =>
  import("@/features/memories/components/memory-form-dialog").then(({ MemoryFormDialog }) => MemoryFormDialog),
);
