import { randomUUID } from "node:crypto";
import {
  type Comment,
  type CommentList,
  inReactionOrder,
  type MemoryEvent,
  type ParsedCommentInput,
  type ReactionEmoji,
  type ReactionList,
} from "@memory-box/contract";
import type { BeforeCommit } from "../../db/before-commit";
import { isForeignKeyViolation } from "../../db/constraint-errors";
import { AppError } from "../../errors";
import type { CommentsRepository, CommentWithAuthor } from "./comments.repository";

export interface Actor {
  userId: string;
}

/**
 * What a change added, for those told of it beyond the live stream (push notifications): the
 * comment's words, or the emoji given. Never on the bus: screens read the memory again.
 */
export interface AddedResponse {
  body?: string;
  emoji?: string;
}

export interface CommentsServiceDeps {
  comments: CommentsRepository;
  publish: (event: MemoryEvent, added?: AddedResponse) => void;
  now?: () => Date;
}

/**
 * Comments and reactions on the shared collection's memories (ADR 0030). Every member may comment
 * on and react to every memory; a comment is edited or deleted only by the member who wrote it.
 * Each change is published, so the other members' open screens follow.
 */
export class CommentsService {
  constructor(private readonly deps: CommentsServiceDeps) {}

  private now(): string {
    return (this.deps.now?.() ?? new Date()).toISOString();
  }

  async list(memoryId: string): Promise<CommentList> {
    const comments = await this.deps.comments.list(memoryId);
    // No comments may also mean no memory: only then is it worth asking.
    if (comments.length === 0) await this.assertMemory(memoryId);
    return { comments: comments.map(present) };
  }

  /**
   * A new comment, answered from the insert itself. With `beforeCommit` (a create's Idempotency-Key
   * recording its answer, ADR 0043) the insert runs in a transaction that the step joins with the
   * comment; without, it is the one statement it always was.
   */
  async create(
    actor: Actor,
    memoryId: string,
    input: ParsedCommentInput,
    beforeCommit?: BeforeCommit<Comment>,
  ): Promise<Comment> {
    const now = this.now();
    const row = {
      id: randomUUID(),
      memory_id: memoryId,
      user_id: actor.userId,
      body: input.body,
      created_at: now,
      updated_at: now,
    };
    const comment = await onMemory(
      beforeCommit
        ? this.deps.comments.transaction(async (trx) => {
            const written = present(await this.deps.comments.insert(row, trx));
            await beforeCommit(trx, written);
            return written;
          })
        : this.deps.comments.insert(row).then(present),
    );
    this.deps.publish({ type: "comment.created", id: memoryId, actor: actor.userId }, { body: comment.body });
    return comment;
  }

  /** The author's new text; the same text again changes nothing (and `updated_at` stays). */
  async update(actor: Actor, memoryId: string, commentId: string, input: ParsedCommentInput): Promise<Comment> {
    const comment = await this.ownComment(actor, memoryId, commentId);
    if (comment.body === input.body) return present(comment);
    const written = await this.deps.comments.updateBody(commentId, input.body, this.now());
    // Deleted since it was read (with its memory, or by its author in another tab).
    if (!written) throw await this.whichIsGone(memoryId);
    this.deps.publish({ type: "comment.updated", id: memoryId, actor: actor.userId });
    return present(written);
  }

  async remove(actor: Actor, memoryId: string, commentId: string): Promise<void> {
    await this.ownComment(actor, memoryId, commentId);
    if (!(await this.deps.comments.delete(commentId))) throw new AppError("comment_not_found");
    this.deps.publish({ type: "comment.deleted", id: memoryId, actor: actor.userId });
  }

  async reactions(actor: Actor, memoryId: string): Promise<ReactionList> {
    const tallies = await this.deps.comments.reactions(memoryId, actor.userId);
    if (tallies.length === 0) await this.assertMemory(memoryId);
    return { reactions: inReactionOrder(tallies) };
  }

  /** Idempotent: reacting again with the same emoji keeps the one reaction. */
  async react(actor: Actor, memoryId: string, emoji: ReactionEmoji): Promise<ReactionList> {
    if (await onMemory(this.deps.comments.addReaction(memoryId, actor.userId, emoji, this.now()))) {
      this.deps.publish({ type: "reaction.changed", id: memoryId, actor: actor.userId }, { emoji });
    }
    return this.reactions(actor, memoryId);
  }

  /** Idempotent: taking back a reaction the member does not have changes nothing. */
  async unreact(actor: Actor, memoryId: string, emoji: ReactionEmoji): Promise<ReactionList> {
    // An unknown memory has no reaction to remove, and `reactions` answers 404 for it.
    if (await this.deps.comments.removeReaction(memoryId, actor.userId, emoji)) {
      this.deps.publish({ type: "reaction.changed", id: memoryId, actor: actor.userId });
    }
    return this.reactions(actor, memoryId);
  }

  private async assertMemory(memoryId: string): Promise<void> {
    if (!(await this.deps.comments.memoryExists(memoryId))) throw new AppError("memory_not_found");
  }

  /** The comment, or which of it and its memory is gone. */
  private async found(memoryId: string, commentId: string): Promise<CommentWithAuthor> {
    const comment = await this.deps.comments.find(memoryId, commentId);
    if (comment) return comment;
    throw await this.whichIsGone(memoryId);
  }

  /** For a comment that is not there: whether its memory is gone too. */
  private async whichIsGone(memoryId: string): Promise<AppError> {
    return (await this.deps.comments.memoryExists(memoryId))
      ? new AppError("comment_not_found")
      : new AppError("memory_not_found");
  }

  private async ownComment(actor: Actor, memoryId: string, commentId: string): Promise<CommentWithAuthor> {
    const comment = await this.found(memoryId, commentId);
    if (comment.user_id !== actor.userId) throw new AppError("not_comment_author");
    return comment;
  }
}

/** A write on a memory, which answers 404 when the memory is unknown or was deleted meanwhile. */
async function onMemory<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new AppError("memory_not_found");
    throw error;
  }
}

function present(comment: CommentWithAuthor): Comment {
  return {
    id: comment.id,
    memory_id: comment.memory_id,
    user_id: comment.user_id,
    author: comment.display_name === null ? null : { display_name: comment.display_name },
    body: comment.body,
    created_at: comment.created_at,
    updated_at: comment.updated_at,
  };
}
