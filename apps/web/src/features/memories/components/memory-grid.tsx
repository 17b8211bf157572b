import type { Memory } from "@memory-box/contract";

import { MemoryCard } from "@/features/memories/components/memory-card";
import { firstScreenCards } from "@/features/memories/utils/card-layout";
import { useIntl } from "@/lib/intl";

/** The cards in API order: one column on small screens, two on medium, three on large. Drawn by the first screen's script too (ADR 0039). */
export function MemoryGrid({ memories }: { memories: Memory[] }) {
  const intl = useIntl();
  return (
    // items-start: a card is as tall as its own content, not its row's tallest neighbour.
    <ul
      aria-label={intl.formatMessage({ id: "home.grid.label" })}
      className="grid grid-cols-1 items-start gap-6 md:grid-cols-2 lg:grid-cols-3"
    >
      {memories.map((memory, index) => (
        <li key={memory.id}>
          <MemoryCard memory={memory} eager={index < firstScreenCards} />
        </li>
      ))}
    </ul>
  );
}
