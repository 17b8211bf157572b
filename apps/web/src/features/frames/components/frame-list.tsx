import type { Frame } from "@memory-box/contract";
import { MonitorSmartphone, TvMinimal } from "lucide-react";
import { useState, type FormEvent } from "react";
import { Link } from "react-router";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { ItemList } from "@/components/item-list";
import { LoadingState } from "@/components/loading-state";
import { Button } from "@/components/ui/button";
import { paths } from "@/config/paths";
import { useChangeFrame, useFrames, useRemoveFrame } from "@/features/frames/api/frames";
import { FrameFields } from "@/features/frames/components/frame-fields";
import { displayOf, formOf, problemsOf, selectionOf, type FrameFormProblems } from "@/features/frames/utils/frame-form";
import { selectionWords } from "@/features/frames/utils/selection-words";
import { formatDay, formatSince } from "@/lib/dates";
import { useIntl } from "@/lib/intl";
import { notify } from "@/lib/notify";

/**
 * Settings → Frames (ADR 0076): the paired frames, newest first, each with what it shows in words,
 * who paired it and when, and when it was last seen; each one edited in place or removed (its
 * session ends: it goes dark within a minute). "Add a frame" says how one is paired.
 */
export function FrameList() {
  const intl = useIntl();
  const frames = useFrames();

  return (
    <div className="flex flex-col gap-6">
      {frames.isError ? (
        <div className="flex flex-col items-start gap-3" role="alert">
          <p className="text-sm text-destructive">{intl.formatMessage({ id: "frames.loadFailed" })}</p>
          <Button variant="outline" size="sm" onClick={() => void frames.refetch()} disabled={frames.isFetching}>
            {intl.formatMessage({ id: "frames.retry" })}
          </Button>
        </div>
      ) : !frames.data ? (
        <LoadingState shape="rows">{intl.formatMessage({ id: "frames.loading" })}</LoadingState>
      ) : frames.data.frames.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-6 text-center">
          <TvMinimal aria-hidden="true" className="size-8 text-muted-foreground" />
          <p className="font-medium">{intl.formatMessage({ id: "frames.empty.title" })}</p>
          <p className="max-w-prose text-sm text-balance text-muted-foreground">
            {intl.formatMessage({ id: "frames.empty.description" })}
          </p>
        </div>
      ) : (
        <ItemList label={intl.formatMessage({ id: "frames.listLabel" })}>
          {frames.data.frames.map((frame) => (
            <FrameRow key={frame.id} frame={frame} />
          ))}
        </ItemList>
      )}
      <AddFrame />
    </div>
  );
}

function AddFrame() {
  const intl = useIntl();
  const site = window.location.host;
  return (
    <div className="flex flex-col gap-3 rounded-lg bg-muted p-4">
      <h3 className="font-medium">{intl.formatMessage({ id: "frames.add.title" })}</h3>
      <ol className="flex list-decimal flex-col gap-1 ps-5 text-sm text-muted-foreground">
        <li>{intl.formatMessage({ id: "frames.add.step1" }, { address: `${site}${paths.frame}` })}</li>
        <li>{intl.formatMessage({ id: "frames.add.step2" })}</li>
      </ol>
      <Button asChild className="self-start">
        <Link to={paths.device}>{intl.formatMessage({ id: "frames.add.enterCode" })}</Link>
      </Button>
    </div>
  );
}

function FrameRow({ frame }: { frame: Frame }) {
  const intl = useIntl();
  const [editing, setEditing] = useState(false);
  const remove = useRemoveFrame();
  const seen = frame.last_seen_at
    ? intl.formatMessage({ id: "frames.lastSeen" }, { since: formatSince(frame.last_seen_at) })
    : intl.formatMessage({ id: "frames.neverSeen" });

  return (
    <li aria-label={frame.name} className="flex flex-col gap-4 p-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 items-start gap-3">
          <MonitorSmartphone aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
          <div className="flex min-w-0 flex-col gap-1">
            <span className="font-medium break-words">{frame.name}</span>
            <span className="text-sm break-words">{selectionWords(frame.selection, intl)}</span>
            <span className="text-sm text-muted-foreground">
              {intl.formatMessage({ id: "frames.pairedBy" }, { name: frame.paired_by.name, date: formatDay(frame.paired_at) })}
            </span>
            <span className="text-sm text-muted-foreground">{seen}</span>
          </div>
        </div>
        {!editing && (
          <div className="flex shrink-0 flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
              {intl.formatMessage({ id: "frames.edit" })}
            </Button>
            <ConfirmDialog
              trigger={
                <Button variant="outline" size="sm" disabled={remove.isPending}>
                  {intl.formatMessage({ id: "frames.remove" })}
                </Button>
              }
              title={intl.formatMessage({ id: "frames.remove.title" }, { name: frame.name })}
              description={intl.formatMessage({ id: "frames.remove.description" })}
              confirmLabel={intl.formatMessage({ id: "frames.remove" })}
              destructive
              onConfirm={() =>
                remove.mutate(frame.id, {
                  onSuccess: () =>
                    notify.success(
                      intl.formatMessage({ id: "frames.removed" }, { name: frame.name }),
                      intl.formatMessage({ id: "frames.remove.description" }),
                    ),
                  onError: () =>
                    notify.error(intl.formatMessage({ id: "toast.error" }), intl.formatMessage({ id: "frames.remove.failed" })),
                })
              }
            />
          </div>
        )}
      </div>
      {editing && <FrameEdit frame={frame} onDone={() => setEditing(false)} />}
    </li>
  );
}

function FrameEdit({ frame, onDone }: { frame: Frame; onDone: () => void }) {
  const intl = useIntl();
  const [form, setForm] = useState(() => formOf(frame));
  const [problems, setProblems] = useState<FrameFormProblems>({});
  const change = useChangeFrame();

  const save = (event: FormEvent) => {
    event.preventDefault();
    const found = problemsOf(form);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    change.mutate(
      { id: frame.id, change: { name: form.name.trim(), selection: selectionOf(form), display: displayOf(form) } },
      {
        onSuccess: () => {
          notify.success(intl.formatMessage({ id: "frames.saved" }));
          onDone();
        },
        onError: () => notify.error(intl.formatMessage({ id: "toast.error" }), intl.formatMessage({ id: "frames.save.failed" })),
      },
    );
  };

  return (
    <form noValidate className="flex flex-col gap-5 border-t pt-4" onSubmit={save}>
      <FrameFields value={form} onChange={setForm} problems={problems} disabled={change.isPending} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={change.isPending}>
          {intl.formatMessage({ id: change.isPending ? "frames.saving" : "frames.save" })}
        </Button>
        <Button type="button" variant="outline" disabled={change.isPending} onClick={onDone}>
          {intl.formatMessage({ id: "common.cancel" })}
        </Button>
      </div>
    </form>
  );
}
