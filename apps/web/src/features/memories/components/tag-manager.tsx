import { useId, useState, type FormEvent } from "react";
import { MemoryLimits, tagSeparators } from "@memory-box/contract";
import { Pencil } from "lucide-react";

import { LoadingState } from "@/components/loading-state";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { useTags } from "@/features/memories/api/get-tags";
import { useRenameTag } from "@/features/memories/api/rename-tag";
import { ApiError } from "@/lib/api-client";
import { notify } from "@/lib/notify";
import { useIntl } from "@/lib/intl";

/**
 * Settings → Tags, for owners (issue #34): every tag in use with how many memories carry it; one
 * is renamed in place, and renaming it into another tag's name (case ignored) merges the two.
 */
export function TagManager() {
  const tags = useTags();
  const intl = useIntl();
  const [editing, setEditing] = useState<string | null>(null);

  if (tags.isPending) return <LoadingState shape="rows">{intl.formatMessage({ id: "settings.tags.loading" })}</LoadingState>;
  const list = tags.data?.tags ?? [];
  if (list.length === 0)
    return <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "settings.tags.empty" })}</p>;

  return (
    <ul aria-label={intl.formatMessage({ id: "settings.tags.list" })} className="flex flex-col divide-y">
      {list.map(({ tag, count }) => (
        <li key={tag} className="flex min-h-12 flex-wrap items-center justify-between gap-2 py-2">
          {editing === tag ? (
            <RenameForm
              tag={tag}
              others={list.map((other) => other.tag).filter((other) => other !== tag)}
              onDone={() => setEditing(null)}
            />
          ) : (
            <>
              <span className="min-w-0 truncate font-medium">{tag}</span>
              <span className="flex items-center gap-2">
                <span className="text-sm text-muted-foreground tabular-nums">
                  {intl.formatMessage({ id: "settings.tags.count" }, { count })}
                </span>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={intl.formatMessage({ id: "settings.tags.rename" }, { tag })}
                  title={intl.formatMessage({ id: "settings.tags.rename" }, { tag })}
                  onClick={() => setEditing(tag)}
                >
                  <Pencil aria-hidden="true" />
                </Button>
              </span>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

function RenameForm({ tag, others, onDone }: { tag: string; others: string[]; onDone: () => void }) {
  const intl = useIntl();
  const id = useId();
  const [name, setName] = useState(tag);
  const [problem, setProblem] = useState<string | null>(null);
  const rename = useRenameTag();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const to = name.trim();
    if (to === "" || to.length > MemoryLimits.tagMaxLength || tagSeparators.test(to)) {
      setProblem(intl.formatMessage({ id: "settings.tags.nameRule" }, { limit: MemoryLimits.tagMaxLength }));
      return;
    }
    if (to === tag) return onDone();
    const into = others.find((other) => other.toLowerCase() === to.toLowerCase());
    rename.mutate(
      { from: tag, to },
      {
        onSuccess: () => {
          notify.success(
            intl.formatMessage({ id: into ? "settings.tags.merged" : "settings.tags.renamed" }),
            intl.formatMessage(
              { id: into ? "settings.tags.mergedDescription" : "settings.tags.renamedDescription" },
              { from: tag, to },
            ),
          );
          onDone();
        },
        onError: (error) =>
          notify.error(
            intl.formatMessage({ id: "toast.error" }),
            error instanceof ApiError && error.status < 500 ? error.message : intl.formatMessage({ id: "settings.tags.failed" }),
          ),
      },
    );
  }

  return (
    <form onSubmit={submit} className="flex w-full flex-col gap-1" noValidate>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={id} className="sr-only">
          {intl.formatMessage({ id: "settings.tags.renameLabel" }, { tag })}
        </label>
        <Input
          id={id}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setProblem(null);
          }}
          onKeyDown={(event) => {
            if (event.key === "Escape") onDone();
          }}
          autoFocus
          autoComplete="off"
          maxLength={MemoryLimits.tagMaxLength * 2}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          disabled={rename.isPending}
          className="min-w-40 flex-1"
        />
        <Button type="submit" size="sm" disabled={rename.isPending}>
          {intl.formatMessage({ id: "settings.tags.save" })}
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onDone} disabled={rename.isPending}>
          {intl.formatMessage({ id: "settings.tags.cancel" })}
        </Button>
      </div>
      {problem && (
        <p id={`${id}-problem`} className="text-xs text-destructive">
          {problem}
        </p>
      )}
    </form>
  );
}
