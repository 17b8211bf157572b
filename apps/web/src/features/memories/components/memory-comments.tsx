import { useId, useRef, useState, type FormEvent } from "react";
import type { Comment } from "@memory-box/contract";
import { MessageCircle, PencilIcon, Trash2Icon } from "lucide-react";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { FieldProblem } from "@/components/field-problem";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { useChangeComment, useComments } from "@/features/memories/api/comments";
import { commentTextProblem, responseProblem } from "@/features/memories/utils/comment-problems";
import { formatTimestamp, isSameInstant } from "@/features/memories/utils/memory-dates";
import { useAuth } from "@/lib/auth-context";
import { CreateAttempt } from "@/lib/idempotency-key";
import { useIntl, wordSpace } from "@/lib/intl";

/**
 * A memory's comments, oldest first, and the form to add one. Each member edits and deletes their
 * own (delete after a confirmation); the other member's new comments arrive by the live updates.
 */

export function MemoryComments({ memoryId }: { memoryId: string }) {
  const comments = useComments(memoryId);
  const add = useChangeComment(memoryId);
  const userId = useAuth().user?.id;
  // Sending the same comment again (after a dropped connection) never adds it twice.
  const addAttempt = useRef(new CreateAttempt());
  const intl = useIntl();

  return (
    <section aria-labelledby="memory-comments" className="flex flex-col gap-4">
      <h2 id="memory-comments" className="text-lg font-semibold">
        {intl.formatMessage({ id: "comments.heading" })}
      </h2>
      {comments.isError && (
        <p className="text-sm text-destructive" role="alert">
          {intl.formatMessage({ id: "comments.loadFailed" }, { problem: responseProblem(comments.error) })}
        </p>
      )}
      {comments.data?.length === 0 && (
        <p className="flex items-center gap-2 rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
          <MessageCircle aria-hidden="true" className="size-4 shrink-0" />
          {intl.formatMessage({ id: "comments.none" })}
        </p>
      )}
      {comments.data && comments.data.length > 0 && (
        <ol className="flex flex-col gap-3">
          {comments.data.map((comment) => (
            <li key={comment.id}>
              <CommentItem comment={comment} own={comment.user_id !== null && comment.user_id === userId} memoryId={memoryId} />
            </li>
          ))}
        </ol>
      )}
      <CommentForm
        label={intl.formatMessage({ id: "comments.add.label" })}
        submitLabel={intl.formatMessage({ id: "comments.add.submit" })}
        busyLabel={intl.formatMessage({ id: "comments.add.busy" })}
        sending={add}
        onSubmit={async (body) => {
          const idempotencyKey = addAttempt.current.keyFor({ memoryId, body });
          await add.mutateAsync({ kind: "add", body, idempotencyKey });
          addAttempt.current.answered();
        }}
        resetAfterSubmit
      />
    </section>
  );
}

function CommentItem({ comment, own, memoryId }: { comment: Comment; own: boolean; memoryId: string }) {
  const [editing, setEditing] = useState(false);
  const intl = useIntl();
  // Apart, so that saving an edit never reads "Deleting..." and a failed edit's reason stays in its form.
  const edit = useChangeComment(memoryId);
  const remove = useChangeComment(memoryId);
  const author = comment.author?.display_name.trim() || intl.formatMessage({ id: "memory.author.unknown" });

  return (
    <article
      className="flex flex-col gap-1 rounded-lg border bg-background/50 p-3"
      aria-label={intl.formatMessage({ id: "comments.by" }, { author })}
    >
      <header className="flex items-center justify-between gap-3">
        <p className="min-w-0 text-sm">
          <bdi className="font-medium">{author}</bdi>
          {wordSpace}
          <time dateTime={comment.created_at} className="text-muted-foreground">
            {formatTimestamp(comment.created_at)}
          </time>
          {!isSameInstant(comment.created_at, comment.updated_at) && (
            <span className="text-muted-foreground">{intl.formatMessage({ id: "comments.edited" })}</span>
          )}
        </p>
        {own && !editing && (
          <div className="-my-1 flex shrink-0 gap-1">
            {/* On a phone the icons alone, so the author and the date keep their line; the names stay whole for assistive technology. */}
            <Button
              variant="ghost"
              size="sm"
              aria-label={intl.formatMessage({ id: "comments.editComment" })}
              onClick={() => setEditing(true)}
            >
              <PencilIcon aria-hidden="true" />
              <span className="max-sm:sr-only">{intl.formatMessage({ id: "comments.edit" })}</span>
            </Button>
            <ConfirmDialog
              trigger={
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={remove.isPending}
                  aria-label={intl.formatMessage({ id: remove.isPending ? "comments.deleting" : "comments.deleteComment" })}
                >
                  <Trash2Icon aria-hidden="true" />
                  <span className="max-sm:sr-only">
                    {remove.isPending
                      ? intl.formatMessage({ id: "comments.deleting" })
                      : intl.formatMessage({ id: "comments.delete" })}
                  </span>
                </Button>
              }
              title={intl.formatMessage({ id: "comments.delete.title" })}
              description={intl.formatMessage({ id: "comments.delete.description" })}
              confirmLabel={intl.formatMessage({ id: "comments.delete" })}
              destructive
              // A failure is shown under the comment, from the mutation's state.
              onConfirm={() => remove.mutate({ kind: "delete", commentId: comment.id })}
            />
          </div>
        )}
      </header>
      {editing ? (
        <CommentForm
          label={intl.formatMessage({ id: "comments.edit.label" })}
          submitLabel={intl.formatMessage({ id: "comments.edit.submit" })}
          busyLabel={intl.formatMessage({ id: "comments.edit.busy" })}
          initial={comment.body}
          sending={edit}
          onSubmit={async (body) => {
            await edit.mutateAsync({ kind: "edit", commentId: comment.id, body });
            setEditing(false);
          }}
          onCancel={() => {
            edit.reset();
            setEditing(false);
          }}
        />
      ) : (
        <p dir="auto" className="text-sm break-words whitespace-pre-wrap">
          {comment.body}
        </p>
      )}
      {!editing && remove.isError && (
        <p className="text-sm text-destructive" role="alert">
          {responseProblem(remove.error)}
        </p>
      )}
    </article>
  );
}

interface CommentFormProps {
  label: string;
  submitLabel: string;
  busyLabel: string;
  initial?: string;
  /** The mutation that sends the text: its pending state and its error are the form's. */
  sending: Pick<ReturnType<typeof useChangeComment>, "isPending" | "error" | "reset">;
  onSubmit: (body: string) => Promise<unknown>;
  onCancel?: () => void;
  /** Empties the field after a successful submit (a new comment), instead of leaving it to the caller. */
  resetAfterSubmit?: boolean;
}

/** The comment text with its button; the text stays when sending fails, with the reason under it. */
function CommentForm(props: CommentFormProps) {
  const { label, submitLabel, busyLabel, initial = "", sending, onSubmit, onCancel, resetAfterSubmit } = props;
  const fieldId = useId();
  const problemId = useId();
  const intl = useIntl();
  const [text, setText] = useState(initial);
  const busy = sending.isPending;
  const tooLong = commentTextProblem(text);
  const problem = tooLong ?? (sending.error ? responseProblem(sending.error) : undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || text.trim() === "" || tooLong) return;
    try {
      await onSubmit(text);
      if (resetAfterSubmit) setText("");
    } catch {
      // Shown from `sending.error`; the text stays for another try.
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-2">
      <Label htmlFor={fieldId} className={resetAfterSubmit ? "sr-only" : undefined}>
        {label}
      </Label>
      <Textarea
        id={fieldId}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          if (sending.error) sending.reset();
        }}
        placeholder={resetAfterSubmit ? intl.formatMessage({ id: "comments.placeholder" }) : undefined}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? problemId : undefined}
        disabled={busy}
        rows={2}
      />
      <FieldProblem id={problemId} problem={problem} />
      <div className="flex justify-end gap-2">
        {onCancel && (
          <Button type="button" variant="outline" size="sm" onClick={onCancel} disabled={busy}>
            {intl.formatMessage({ id: "common.cancel" })}
          </Button>
        )}
        <Button type="submit" size="sm" disabled={busy || text.trim() === "" || tooLong !== undefined}>
          {busy ? busyLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}
