import type { ReactNode } from "react";

import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { useReturnFocus } from "@/hooks/use-return-focus";

export interface ConfirmDeleteDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  /** While true the dialog shows "Deleting..." and cannot be dismissed (Escape, Cancel). */
  deleting: boolean;
  onConfirm: () => void;
  /** The button that opens it, when the dialog owns its trigger. */
  trigger?: ReactNode;
}

/**
 * A delete that needs an explicit answer: an alert dialog (outside clicks never dismiss it) that
 * stays open with "Deleting..." until the server has answered. Focus returns to what opened it.
 */
export function ConfirmDeleteDialog({
  open,
  onOpenChange,
  title,
  description,
  deleting,
  onConfirm,
  trigger,
}: ConfirmDeleteDialogProps) {
  const returnFocus = useReturnFocus();
  return (
    <AlertDialog open={open} onOpenChange={(next) => (!next && deleting ? undefined : onOpenChange(next))}>
      {trigger ? <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger> : null}
      <AlertDialogContent
        {...returnFocus}
        onEscapeKeyDown={(event) => {
          if (deleting) event.preventDefault();
        }}
      >
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={deleting}>Cancel</AlertDialogCancel>
          <AlertDialogAction
            variant="destructive"
            disabled={deleting}
            onClick={(event) => {
              // Stay open with "Deleting..." until the server answers.
              event.preventDefault();
              onConfirm();
            }}
          >
            {deleting ? "Deleting..." : "Delete"}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
