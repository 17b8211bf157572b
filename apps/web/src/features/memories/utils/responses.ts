import type { Memory } from "@memory-box/contract";
import { activeIntl } from "@/lib/intl";

/** "1 comment", "3 comments": what a card's count means, for screen readers. */
export function commentCountText(count: number): string {
  return activeIntl().formatMessage({ id: "memory.responses.comments" }, { count });
}

/** Whether a card has any comment or reaction to count (it shows none at zero). */
export function hasResponses(memory: Pick<Memory, "comment_count" | "reactions">): boolean {
  return memory.comment_count > 0 || memory.reactions.length > 0;
}
