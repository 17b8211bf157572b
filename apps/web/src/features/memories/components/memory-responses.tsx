import type { Memory } from "@memory-box/contract";

import { Card, CardContent } from "@/components/ui/card";
import { MemoryComments } from "@/features/memories/components/memory-comments";
import { ReactionBar } from "@/features/memories/components/reaction-bar";

/** Under a memory on its page: the members' reactions, then their comments (ADR 0030). */
export function MemoryResponses({ memory }: { memory: Pick<Memory, "id" | "reactions"> }) {
  return (
    <Card>
      <CardContent className="flex flex-col gap-6">
        <ReactionBar memory={memory} />
        <MemoryComments memoryId={memory.id} />
      </CardContent>
    </Card>
  );
}
