import { useState } from "react";
import type { Memory } from "@memory-box/contract";
import { ArrowLeftIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { MemoryForm } from "@/features/memories/components/memory-form";

/** Edit mode: the form inline. Saving or cancelling returns to the details (saving reloads them). */
export function MemoryEditor({ memory, onDone }: { memory: Memory; onDone: () => void }) {
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
