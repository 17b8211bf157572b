import { CloudOff, FileQuestion } from "lucide-react";

import { EmptyState } from "@/components/empty-state";
import { BackToMemories } from "@/features/memories/components/back-to-memories";
import { useIntl } from "@/lib/intl";

/**
 * The detail page of a memory that does not exist (or was just deleted by someone else), or, with
 * `notOnDevice`, of one this device has not kept and cannot fetch while offline (said calmly: it is
 * not an error, and the page stays until the connection returns and the memory loads).
 */
export function MemoryNotFound({ notOnDevice = false }: { notOnDevice?: boolean }) {
  const intl = useIntl();
  return (
    <div className="min-h-svh bg-muted">
      <main className="mx-auto flex max-w-4xl flex-col items-start gap-4 p-4">
        <BackToMemories />
        <div className="w-full">
          {notOnDevice ? (
            <EmptyState
              icon={CloudOff}
              heading="h1"
              title={intl.formatMessage({ id: "memory.notOnDevice" })}
              description={intl.formatMessage({ id: "memory.notOnDeviceDetail" })}
            />
          ) : (
            <EmptyState icon={FileQuestion} heading="h1" title={intl.formatMessage({ id: "memory.notFound" })} />
          )}
        </div>
      </main>
    </div>
  );
}
