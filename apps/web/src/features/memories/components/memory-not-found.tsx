import { FileQuestion } from "lucide-react";

import { EmptyState } from "@/components/empty-state";
import { BackToMemories } from "@/features/memories/components/back-to-memories";
import { useIntl } from "@/lib/intl";

/** The detail page of a memory that does not exist (or was just deleted by someone else). */
export function MemoryNotFound() {
  const intl = useIntl();
  return (
    <div className="min-h-svh bg-muted">
      <main className="mx-auto flex max-w-4xl flex-col items-start gap-4 p-4">
        <BackToMemories />
        <div className="w-full">
          <EmptyState icon={FileQuestion} heading="h1" title={intl.formatMessage({ id: "memory.notFound" })} />
        </div>
      </main>
    </div>
  );
}
