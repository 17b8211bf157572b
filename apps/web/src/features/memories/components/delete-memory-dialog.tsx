import type { Memory } from "@memory-box/contract";

import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { useDeleteMemory } from "@/features/memories/api/delete-memory";
import { useReturnFocus } from "@/hooks/use-return-focus";
import { notify } from "@/lib/notify";
import { activeIntl, useIntl } from "@/lib/intl";

/** The spec words the question and the success toast differently on the card and on the detail page. */
const wording = {
  card: {
    title: () => activeIntl().formatMessage({ id: "memory.delete.card.title" }),
    description: (memory: Pick<Memory, "title">) => memory.title,
    deleted: () => activeIntl().formatMessage({ id: "memory.delete.card.deleted" }),
  },
  detail: {
    title: () => activeIntl().formatMessage({ id: "memory.delete.detail.title" }),
    description: () => activeIntl().formatMessage({ id: "memory.delete.detail.description" }),
    deleted: () => activeIntl().formatMessage({ id: "memory.delete.detail.deleted" }),
  },
};

export interface DeleteMemoryDialogProps {
  memory: Pick<Memory, "id" | "title">;
  /** Where the question is asked, which sets its words. */
  askedFrom: keyof typeof wording;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After the memory is gone and the toast is up (the detail page leaves for home); without it the dialog closes. */
  onDeleted?: () => void;
}

/**
 * A delete that needs an explicit answer: an alert dialog (outside clicks never dismiss it) that
 * stays open with "Deleting..." until the server has answered and the lists are refreshed; while
 * deleting, neither Escape nor Cancel dismisses it. A failure closes it, so the error toast is not
 * hidden from screen readers behind the modal, and focus returns to what opened it.
 */
export function DeleteMemoryDialog({ memory, askedFrom, open, onOpenChange, onDeleted }: DeleteMemoryDialogProps) {
  const intl = useIntl();
  const words = wording[askedFrom];
  const returnFocus = useReturnFocus();
  const deletion = useDeleteMemory({
    onSuccess: () => {
      notify.success(intl.formatMessage({ id: "memory.delete.toast" }), words.deleted());
      if (onDeleted) onDeleted();
      else onOpenChange(false);
    },
    onError: (error) => {
      console.error("Error deleting memory:", error);
      notify.error(intl.formatMessage({ id: "toast.error" }), intl.formatMessage({ id: "memory.delete.failed" }));
      onOpenChange(false);
    },
  });
  const deleting = deletion.isPending;

  return (
    <AlertDialog open={open} onOpenChange={(next) => (!next && deleting ? undefined : onOpenChange(next))}>
      <AlertDialogContent
        {...returnFocus}
        onEscapeKeyDown={(event) => {
          if (deleting) event.preventDefault();
        }}
      >
        <AlertDialogHeader>
          <AlertDialogTitle>{words.title()}</AlertDialogTitle>
          <AlertDialogDescription>{words.description(memory)}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={deleting}>{intl.formatMessage({ id: "common.cancel" })}</AlertDialogCancel>
          <AlertDialogAction
            variant="destructive"
            disabled={deleting}
            onClick={(event) => {
              // Stay open with "Deleting..." until the server answers.
              event.preventDefault();
              deletion.mutate(memory.id);
            }}
          >
            {deleting
              ? intl.formatMessage({ id: "memory.delete.deleting" })
              : intl.formatMessage({ id: "memory.delete.confirm" })}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
