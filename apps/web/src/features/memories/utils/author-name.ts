import type { Memory } from "@memory-box/contract";

/** Who shared a memory: the author's display name, or "Unknown User" when there is none. */
export function authorName(memory: Pick<Memory, "profiles">): string {
  const name = memory.profiles?.display_name.trim();
  return name ? name : "Unknown User";
}
