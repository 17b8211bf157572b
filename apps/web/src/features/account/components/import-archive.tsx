import { useId, useState, type FormEvent } from "react";
import type { ImportFormat, ImportProgress } from "@memory-box/contract";
import { UploadIcon } from "lucide-react";

import { ChoiceGroup } from "@/components/choice-group";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useImportArchive, useImportProgress } from "@/features/account/api/import";
import { ApiError } from "@/lib/api-client";
import { useIntl, wordSpace, type AppIntl } from "@/lib/intl";
import { notify } from "@/lib/notify";

const formats = [
  { value: "memory-box", label: "import.format.memoryBox" },
  { value: "dayone", label: "import.format.dayOne" },
] as const satisfies readonly { value: ImportFormat; label: string }[];

/** What the server is doing, in words, with how far it is when it can say. */
function stepOf(intl: AppIntl, sent: number, server: ImportProgress | undefined): { text: string; fraction: number | undefined } {
  if (sent < 1)
    return { text: intl.formatMessage({ id: "import.step.uploading" }, { percent: Math.round(sent * 100) }), fraction: sent };
  if (server?.phase === "photos") {
    return {
      text: intl.formatMessage(
        { id: server.with_videos ? "import.step.photosAndVideos" : "import.step.photos" },
        { done: server.done, total: server.total },
      ),
      fraction: server.total ? server.done / server.total : undefined,
    };
  }
  if (server?.phase === "saving") return { text: intl.formatMessage({ id: "import.step.saving" }), fraction: undefined };
  return { text: intl.formatMessage({ id: "import.step.checking" }), fraction: undefined };
}

/**
 * "Import" (owners only): a Memory Box archive or a Day One export, all of it or nothing.
 * Memories already here are left as they are, so importing the same file again changes nothing.
 */
export function ImportArchive() {
  const intl = useIntl();
  const [format, setFormat] = useState<ImportFormat>("memory-box");
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState(0);
  const [refusal, setRefusal] = useState<string | null>(null);
  const importing = useImportArchive();
  const progress = useImportProgress(importing.isPending && sent >= 1);
  const fileId = useId();
  const step = stepOf(intl, sent, progress.data ?? undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setRefusal(null);
    setSent(0);
    importing.mutate(
      { file, format, onSent: setSent },
      {
        onSuccess: (result) => {
          const brought =
            result.videos > 0
              ? intl.formatMessage(
                  { id: "import.finishedDetailWithVideos" },
                  { memories: result.memories, photos: result.photos, videos: result.videos },
                )
              : intl.formatMessage({ id: "import.finishedDetail" }, { memories: result.memories, photos: result.photos });
          const already =
            result.already_here > 0
              ? wordSpace + intl.formatMessage({ id: "import.alreadyHere" }, { count: result.already_here })
              : "";
          notify.success(intl.formatMessage({ id: "import.finished" }), brought + already);
          setFile(null);
        },
        onError: (error) =>
          setRefusal(
            error instanceof ApiError && error.status === 422 ? error.message : intl.formatMessage({ id: "import.failed" }),
          ),
      },
    );
  };

  return (
    <form className="flex flex-col gap-4" onSubmit={submit}>
      <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "import.intro" })}</p>
      <ChoiceGroup
        legend={intl.formatMessage({ id: "import.legend" })}
        name="import-format"
        options={formats.map(({ value, label }) => ({ value, label: intl.formatMessage({ id: label }) }))}
        value={format}
        onChange={setFormat}
        disabled={importing.isPending}
      />
      <div className="flex flex-col gap-2">
        <Label htmlFor={fileId}>{intl.formatMessage({ id: "import.file" })}</Label>
        <Input
          id={fileId}
          type="file"
          accept=".zip,application/zip"
          disabled={importing.isPending}
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
        />
      </div>
      {importing.isPending && (
        <div className="flex flex-col gap-2" role="status">
          <div
            role="progressbar"
            aria-label={intl.formatMessage({ id: "import.progress" })}
            aria-valuemin={0}
            aria-valuemax={100}
            {...(step.fraction === undefined ? {} : { "aria-valuenow": Math.round(step.fraction * 100) })}
            className="h-1.5 overflow-hidden rounded-full bg-muted"
          >
            <div
              className={
                step.fraction === undefined
                  ? "h-full w-1/3 animate-pulse rounded-full bg-primary"
                  : "h-full rounded-full bg-primary transition-[width] duration-200"
              }
              style={step.fraction === undefined ? undefined : { width: `${Math.round(step.fraction * 100)}%` }}
            />
          </div>
          <p className="text-sm text-muted-foreground">{step.text}</p>
        </div>
      )}
      {refusal && (
        <p className="text-sm text-destructive" role="alert">
          {refusal}
        </p>
      )}
      <Button type="submit" variant="outline" className="self-start" disabled={!file || importing.isPending}>
        <UploadIcon aria-hidden="true" />
        {importing.isPending ? intl.formatMessage({ id: "import.busy" }) : intl.formatMessage({ id: "import.submit" })}
      </Button>
    </form>
  );
}
