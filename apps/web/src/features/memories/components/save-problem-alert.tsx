import { CircleAlertIcon, UsersIcon } from "lucide-react";

import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { SaveProblem } from "@/features/memories/hooks/use-save-memory";
import { shownValue, type ConcurrentChange } from "@/features/memories/utils/memory-conflict";
import type { MemoryFormValues } from "@/features/memories/utils/memory-input";
import { activeIntl, useIntl, wordSpace } from "@/lib/intl";

export interface SaveProblemAlertProps {
  problem: SaveProblem;
  /** The form's values now, to show "yours" as it stands after the member's choices. */
  values: MemoryFormValues;
  failedPhotoCount: number;
  disabled: boolean;
  onRetryUploads: () => void;
  onRemoveFailed: () => void;
  onSaveWithoutFailed: () => void;
  /** After a conflict: put the other member's value of a field into the form. */
  onUseTheirs: (change: ConcurrentChange) => void;
}

/**
 * Why the last save did not go through, next to the form's buttons: the spec's toast says that it
 * failed, this says why and offers what can be done. Problems with a field's rules are shown
 * at the field.
 */

export function SaveProblemAlert({
  problem,
  values,
  failedPhotoCount,
  disabled,
  onRetryUploads,
  onRemoveFailed,
  onSaveWithoutFailed,
  onUseTheirs,
}: SaveProblemAlertProps) {
  const intl = useIntl();
  switch (problem.kind) {
    case "fields":
      // Shown at the fields themselves.
      return null;
    case "uploads":
      if (failedPhotoCount === 0) return null;
      return (
        <Alert variant="destructive">
          <CircleAlertIcon aria-hidden="true" />
          <AlertTitle>{intl.formatMessage({ id: "save.uploads.title" }, { count: failedPhotoCount })}</AlertTitle>
          <AlertDescription>
            <p>{intl.formatMessage({ id: "save.uploads.description" })}</p>
            <div className="mt-1 flex flex-wrap gap-2">
              <Button type="button" size="sm" variant="outline" onClick={onRetryUploads} disabled={disabled}>
                {intl.formatMessage({ id: "save.uploads.retry" })}
              </Button>
              <Button type="button" size="sm" variant="outline" onClick={onRemoveFailed} disabled={disabled}>
                {intl.formatMessage({ id: "save.uploads.remove" })}
              </Button>
              <Button type="button" size="sm" variant="outline" onClick={onSaveWithoutFailed} disabled={disabled}>
                {intl.formatMessage({ id: "save.uploads.without" })}
              </Button>
            </div>
          </AlertDescription>
        </Alert>
      );
    case "conflict":
      return (
        <Alert>
          <UsersIcon aria-hidden="true" />
          <AlertTitle>{problem.headline}</AlertTitle>
          <AlertDescription>
            <ConflictChanges
              changes={problem.changes}
              values={values}
              photosChanged={problem.photosChanged}
              disabled={disabled}
              onUseTheirs={onUseTheirs}
            />
            <p>{intl.formatMessage({ id: "save.conflict.note" })}</p>
          </AlertDescription>
        </Alert>
      );
    case "message":
      return (
        <Alert variant="destructive">
          <CircleAlertIcon aria-hidden="true" />
          <AlertTitle>{intl.formatMessage({ id: "save.failed.title" })}</AlertTitle>
          <AlertDescription>
            <p>{problem.message}</p>
          </AlertDescription>
        </Alert>
      );
  }
}

function ConflictChanges({
  changes,
  values,
  photosChanged,
  disabled,
  onUseTheirs,
}: {
  changes: ConcurrentChange[];
  values: MemoryFormValues;
  photosChanged: boolean;
  disabled: boolean;
  onUseTheirs: (change: ConcurrentChange) => void;
}) {
  const intl = useIntl();
  return (
    <dl className="my-1 grid w-full gap-2 text-foreground">
      {changes.map((change) => (
        <div key={change.field} className="grid gap-0.5 rounded-md bg-muted/60 px-3 py-2">
          <dt className="font-medium">{change.label}</dt>
          <dd>
            {change.taken || shownValue(values, change.field) === change.theirs ? (
              <p>
                {intl.formatMessage({ id: "save.conflict.taken" })}
                {wordSpace}
                <Value text={change.theirs} />
              </p>
            ) : (
              <>
                <p>
                  {intl.formatMessage({ id: "save.conflict.theirs" })}
                  {wordSpace}
                  <Value text={change.theirs} />
                </p>
                <p>
                  {intl.formatMessage({ id: "save.conflict.yours" })}
                  {wordSpace}
                  <Value text={shownValue(values, change.field)} />
                </p>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  className="mt-1"
                  disabled={disabled}
                  onClick={() => onUseTheirs(change)}
                >
                  {intl.formatMessage({ id: "save.conflict.useTheirs" })}
                </Button>
              </>
            )}
          </dd>
        </div>
      ))}
      {photosChanged && (
        <div className="grid gap-0.5 rounded-md bg-muted/60 px-3 py-2">
          <dt className="font-medium">{intl.formatMessage({ id: "save.conflict.photos" })}</dt>
          <dd>{intl.formatMessage({ id: "save.conflict.photosNote" })}</dd>
        </div>
      )}
    </dl>
  );
}

function Value({ text }: { text: string }) {
  return text.trim() === "" ? (
    <em>{activeIntl().formatMessage({ id: "save.empty" })}</em>
  ) : (
    <q className="break-words whitespace-pre-line">{text}</q>
  );
}
