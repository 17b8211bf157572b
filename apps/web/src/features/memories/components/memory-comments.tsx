import { useId, useState, type FormEvent } from "react";
import type { Comment } from "@memory-box/contract";
import { MessageCircle, PencilIcon, Trash2Icon } from "lucide-react";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { FieldProblem } from "@/components/field-problem";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { useChangeComment, useComments, type CommentChange } from "@/features/memories/api/comments";
import { commentTextProblem, responseProblem } from "@/features/memories/utils/comment-problems";
import { formatTimestamp, isSameInstant } from "@/features/memories/utils/memory-dates";
import { useAuth } from "@/lib/auth-context";

/**
 * A memory's comments, oldest first, and the form to add one. Each member edits and deletes their
 * own (delete after a confirmation); the other member's new comments arrive by the live updates.
 */
export function MemoryComments({ memoryId }: { memoryId: string }) {
  const comments = useComments(memoryId);
  const change = useChangeComment(memoryId);
  const userId = useAuth().user?.id;

  return (
    <section aria-labelledby="memory-comments" className="flex flex-col gap-4">
      <h2 id="memory-comments" className="text-lg font-semibold">
        Comments
      </h2>
      {comments.isError && (
        <p className="text-sm text-destructive" role="alert">
          The comments could not be loaded. {responseProblem(comments.error)}
        </p>
      )}
      {comments.data?.length === 0 && (
        <p className="flex items-center gap-2 rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
          <MessageCircle aria-hidden="true" className="size-4 shrink-0" />
          No comments yet.
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
        label="Add a comment"
        submitLabel="Comment"
        busyLabel="Commenting..."
        onSubmit={(body) => change.mutateAsync({ kind: "add", body })}
        resetAfterSubmit
      />
    </section>
  );
}

function CommentItem({ comment, own, memoryId }: { comment: Comment; own: boolean; memoryId: string }) {
  const [editing, setEditing] = useState(false);
  const change = useChangeComment(memoryId);
  const author = comment.author?.display_name.trim() || "Unknown User";
  const send = (request: CommentChange) => change.mutateAsync(request);

  return (
    <article className="flex flex-col gap-1 rounded-lg border bg-background/50 p-3" aria-label={`Comment by ${author}`}>
      <header className="flex items-center justify-between gap-3">
        <p className="min-w-0 text-sm">
          <span className="font-medium">{author}</span>{" "}
          <time dateTime={comment.created_at} className="text-muted-foreground">
            {formatTimestamp(comment.created_at)}
          </time>
          {!isSameInstant(comment.created_at, comment.updated_at) && <span className="text-muted-foreground"> (edited)</span>}
        </p>
        {own && !editing && (
          <div className="-my-1 flex shrink-0 gap-1">
            {/* On a phone the icons alone, so the author and the date keep their line; the names stay whole for assistive technology. */}
            <Button variant="ghost" size="sm" onClick={() => setEditing(true)}>
              <PencilIcon aria-hidden="true" />
              <span className="max-sm:sr-only">Edit</span>
              <span className="sr-only"> comment</span>
            </Button>
            <ConfirmDialog
              trigger={
                <Button variant="ghost" size="sm" disabled={change.isPending}>
                  <Trash2Icon aria-hidden="true" />
                  <span className="max-sm:sr-only">{change.isPending ? "Deleting..." : "Delete"}</span>
                  <span className="sr-only"> comment</span>
                </Button>
              }
              title="Delete comment"
              description="Are you sure you want to delete this comment? This action cannot be undone."
              confirmLabel="Delete"
              destructive
              onConfirm={() => void send({ kind: "delete", commentId: comment.id }).catch(() => {})}
            />
          </div>
        )}
      </header>
      {editing ? (
        <CommentForm
          label="Edit your comment"
          submitLabel="Save"
          busyLabel="Saving..."
          initial={comment.body}
          onSubmit={async (body) => {
            await send({ kind: "edit", commentId: comment.id, body });
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <p className="text-sm break-words whitespace-pre-wrap">{comment.body}</p>
      )}
      {!editing && change.isError && (
        <p className="text-sm text-destructive" role="alert">
          {responseProblem(change.error)}
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
  onSubmit: (body: string) => Promise<unknown>;
  onCancel?: () => void;
  /** Empties the field after a successful submit (a new comment), instead of leaving it to the caller. */
  resetAfterSubmit?: boolean;
}

/** The comment text with its button; the text stays when sending fails, with the reason under it. */
function CommentForm({ label, submitLabel, busyLabel, initial = "", onSubmit, onCancel, resetAfterSubmit }: CommentFormProps) {
  const fieldId = useId();
  const problemId = useId();
  const [text, setText] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const tooLong = commentTextProblem(text);
  const problem = tooLong ?? failure;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || text.trim() === "" || tooLong) return;
    setBusy(true);
    setFailure(undefined);
    try {
      await onSubmit(text);
      if (resetAfterSubmit) setText("");
    } catch (error) {
      setFailure(responseProblem(error));
    } finally {
      setBusy(false);
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
          setFailure(undefined);
        }}
        placeholder={resetAfterSubmit ? "Write a comment..." : undefined}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? problemId : undefined}
        disabled={busy}
        rows={2}
      />
      <FieldProblem id={problemId} problem={problem} />
      <div className="flex justify-end gap-2">
        {onCancel && (
          <Button type="button" variant="outline" size="sm" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        )}
        <Button type="submit" size="sm" disabled={busy || text.trim() === "" || tooLong !== undefined}>
          {busy ? busyLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}
