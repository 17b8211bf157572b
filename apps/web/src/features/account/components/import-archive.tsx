import { useId, useState, type FormEvent } from "react";
import type { ImportFormat, ImportProgress } from "@memory-box/contract";
import { UploadIcon } from "lucide-react";

import { ChoiceGroup } from "@/components/choice-group";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useImportArchive, useImportProgress } from "@/features/account/api/import";
import { ApiError } from "@/lib/api-client";
import { notify } from "@/lib/notify";

const formats: readonly { value: ImportFormat; label: string }[] = [
  { value: "memory-box", label: "A Memory Box archive (from “Download everything”)" },
  { value: "dayone", label: "A Day One export (JSON, as a ZIP)" },
];

/** What the server is doing, in words, with how far it is when it can say. */
function stepOf(sent: number, server: ImportProgress | undefined): { text: string; fraction: number | undefined } {
  if (sent < 1) return { text: `Uploading… ${Math.round(sent * 100)} %`, fraction: sent };
  if (server?.phase === "photos") {
    return {
      text: `Bringing in photos… ${server.done} of ${server.total}`,
      fraction: server.total ? server.done / server.total : undefined,
    };
  }
  if (server?.phase === "saving") return { text: "Saving the memories…", fraction: undefined };
  return { text: "Checking the archive…", fraction: undefined };
}

/**
 * "Import" (owners only): a Memory Box archive or a Day One export, all of it or nothing.
 * Memories already here are left as they are, so importing the same file again changes nothing.
 */
export function ImportArchive() {
  const [format, setFormat] = useState<ImportFormat>("memory-box");
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState(0);
  const [refusal, setRefusal] = useState<string | null>(null);
  const importing = useImportArchive();
  const progress = useImportProgress(importing.isPending && sent >= 1);
  const fileId = useId();
  const step = stepOf(sent, progress.data ?? undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setRefusal(null);
    setSent(0);
    importing.mutate(
      { file, format, onSent: setSent },
      {
        onSuccess: (result) => {
          const already = result.already_here > 0 ? ` ${result.already_here} were already here and were left as they are.` : "";
          notify.success("Import finished", `${result.memories} memories and ${result.photos} photos were brought in.${already}`);
          setFile(null);
        },
        onError: (error) =>
          setRefusal(
            error instanceof ApiError && error.status === 422
              ? error.message
              : "The import did not finish and nothing was changed. Check your connection and try again.",
          ),
      },
    );
  };

  return (
    <form className="flex flex-col gap-4" onSubmit={submit}>
      <p className="text-sm text-muted-foreground">
        Bring memories in from an archive. All of it comes in, or nothing does; memories already here stay as they are.
      </p>
      <ChoiceGroup
        legend="What to import"
        name="import-format"
        options={formats}
        value={format}
        onChange={setFormat}
        disabled={importing.isPending}
      />
      <div className="flex flex-col gap-2">
        <Label htmlFor={fileId}>ZIP file</Label>
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
            aria-label="Import progress"
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
        {importing.isPending ? "Importing..." : "Import"}
      </Button>
    </form>
  );
}
