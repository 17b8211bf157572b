import type { Memory } from "@memory-box/contract";
import { MessageCircle } from "lucide-react";

import { commentCountText, hasResponses } from "@/features/memories/utils/responses";
import { useIntl } from "@/lib/intl";

/** A card's small line of counts: comments, then each emoji's reactions; nothing when there are none. */
export function ResponseCounts({ memory }: { memory: Pick<Memory, "comment_count" | "reactions"> }) {
  const intl = useIntl();
  if (!hasResponses(memory)) return null;
  return (
    <ul
      aria-label={intl.formatMessage({ id: "memory.responses.label" })}
      className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground"
    >
      {memory.comment_count > 0 && (
        <li className="inline-flex items-center gap-1">
          <MessageCircle aria-hidden="true" className="size-3" />
          <span aria-hidden="true">{memory.comment_count}</span>
          <span className="sr-only">{commentCountText(memory.comment_count)}</span>
        </li>
      )}
      {memory.reactions.map((reaction) => (
        <li key={reaction.emoji}>
          {reaction.emoji} {reaction.count}
        </li>
      ))}
    </ul>
  );
}
