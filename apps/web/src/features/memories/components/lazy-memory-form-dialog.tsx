import { lazy, Suspense, useState } from "react";

import type { MemoryFormDialogProps } from "@/features/memories/components/memory-form-dialog";

const MemoryFormDialog = lazy(() =>
  import("@/features/memories/components/memory-form-dialog").then(({ MemoryFormDialog }) => ({ default: MemoryFormDialog })),
);

/**
 * The memory form dialog, its code loaded the first time it opens: the form (uploads, conflict
 * merge, rules) is not on the path of home's first screen. Once opened it stays mounted, so it
 * closes with its animation and reopens at once.
 */
export function LazyMemoryFormDialog(props: MemoryFormDialogProps) {
  const [wanted, setWanted] = useState(props.open);
  if (props.open && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <MemoryFormDialog {...props} />
    </Suspense>
  );
}
