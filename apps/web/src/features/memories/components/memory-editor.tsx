import { useState } from "react";
import type { Memory } from "@memory-box/contract";
import { ArrowLeftIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { MemoryForm } from "@/features/memories/components/memory-form";
import { useIntl } from "@/lib/intl";

/** Edit mode: the form inline. Saving or cancelling returns to the details (saving reloads them). */
export function MemoryEditor({ memory, onDone }: { memory: Memory; onDone: () => void }) {
  const intl = useIntl();
  const [busy, setBusy] = useState(false);

  return (
    <>
      <div>
        <Button variant="ghost" onClick={onDone} disabled={busy}>
          <ArrowLeftIcon aria-hidden="true" className="rtl:-scale-x-100" />
          {intl.formatMessage({ id: "memory.editor.back" })}
        </Button>
      </div>
      <MemoryForm
        memory={memory}
        autoFocus
        onBusyChange={setBusy}
        onCancel={onDone}
        onSaved={onDone}
        header={<h1 className="text-xl font-semibold">{intl.formatMessage({ id: "memory.form.editTitle" })}</h1>}
      />
    </>
  );
}
