import { z } from "zod";
import { requiredText } from "./text";

/** Limits shared by the comment form and the server. */
export const CommentLimits = {
  bodyMaxLength: 2_000,
} as const;

/**
 * The reactions a member can leave on a memory, in the order the reaction bar shows them. A fixed
 * set (ADR 0030): the bar is the same on every screen, and a card's counts stay a short line.
 */
export const reactionEmojis = ["❤️", "😂", "😮", "😢", "👍", "🎉"] as const;
export const ReactionEmoji = z.enum(reactionEmojis, { message: `must be one of ${reactionEmojis.join(" ")}` });
export type ReactionEmoji = z.infer<typeof ReactionEmoji>;

/** What the comment form sends, to add a comment or to edit one's own: the text, trimmed, never empty. */
export const CommentInput = z
  .object({
    body: requiredText(CommentLimits.bodyMaxLength),
  })
  .strict();
export type CommentInput = z.input<typeof CommentInput>;
export type ParsedCommentInput = z.output<typeof CommentInput>;

export const Comment = z.object({
  id: z.uuid(),
  memory_id: z.uuid(),
  /** The member who wrote it; null once their account is deleted. Only they may edit or delete it. */
  user_id: z.string().nullable(),
  /** Their display name as it is now. */
  author: z.object({ display_name: z.string() }).nullable(),
  body: z.string(),
  created_at: z.string(),
  /** Equal to `created_at` until the comment is edited. */
  updated_at: z.string(),
});
export type Comment = z.infer<typeof Comment>;

/** `GET /api/v1/memories/{id}/comments`: every comment on the memory, oldest first. */
export const CommentList = z.object({ comments: z.array(Comment) });
export type CommentList = z.infer<typeof CommentList>;

/** How many members reacted to a memory with one emoji (what cards and lists show). */
export const ReactionCount = z.object({ emoji: ReactionEmoji, count: z.number().int() });
export type ReactionCount = z.infer<typeof ReactionCount>;

/** Who gave a reaction, as the memory's page names them ("Ben ❤️"): their display name as it is now. */
export const ReactionGiver = z.object({ user_id: z.string(), display_name: z.string() });
export type ReactionGiver = z.infer<typeof ReactionGiver>;

/**
 * The same, for the member asking: `mine` tells whether they are one of them, `by` who they are,
 * first to react first (issue #33). Cards keep the counts alone.
 */
export const MemberReaction = ReactionCount.extend({ mine: z.boolean(), by: z.array(ReactionGiver) });
export type MemberReaction = z.infer<typeof MemberReaction>;

/** `GET`, `PUT` and `DELETE /api/v1/memories/{id}/reactions[/{emoji}]`: the memory's reactions now, in the bar's order, none at zero. */
export const ReactionList = z.object({ reactions: z.array(MemberReaction) });
export type ReactionList = z.infer<typeof ReactionList>;

/** Counts of known emoji in the reaction bar's order (anything else stored by hand is left out). */
export function inReactionOrder<T extends { emoji: string }>(counts: readonly T[]): (T & { emoji: ReactionEmoji })[] {
  const order = (emoji: string) => (reactionEmojis as readonly string[]).indexOf(emoji);
  return counts
    .filter((count): count is T & { emoji: ReactionEmoji } => order(count.emoji) !== -1)
    .sort((a, b) => order(a.emoji) - order(b.emoji));
}
