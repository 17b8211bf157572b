import type { Memory } from "@memory-box/contract";
import { activeIntl } from "@/lib/intl";

/** Who shared a memory: the author's display name, or the catalogue's "unknown author" when there is none. */
export function authorName(memory: Pick<Memory, "profiles">): string {
  const name = memory.profiles?.display_name.trim();
  return name ? name : activeIntl().formatMessage({ id: "memory.author.unknown" });
}
