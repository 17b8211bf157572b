import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CheckIcon, CopyIcon, DownloadIcon } from "lucide-react";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { Button } from "@/components/ui/button";
import {
  generateRecoveryCodes,
  recoveryCodesKey,
  recoveryCodesStatus,
  refreshRecoveryCodesStatus,
} from "@/features/auth/api/recovery-codes";
import { useFreshSecondStep } from "@/features/auth/components/fresh-second-step";
import { formatDay } from "@/lib/dates";
import { useIntl } from "@/lib/intl";
import { notify } from "@/lib/notify";

/**
 * The recovery codes, the one time they are shown (ADR 0042): copy or download them, then say
 * they are saved. Nothing shows them again; new ones can be made instead.
 */
export function RecoveryCodesShown({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  const intl = useIntl();
  const [copied, setCopied] = useState(false);
  const text = `${intl.formatMessage({ id: "recovery.file.heading" })}\n${intl.formatMessage({ id: "recovery.file.intro" })}\n\n${codes.join("\n")}\n`;

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "memory-box-recovery-codes.txt";
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <section className="flex flex-col gap-4 rounded-lg border p-4" aria-labelledby="recovery-codes-title">
      <h3 id="recovery-codes-title" className="font-medium">
        {intl.formatMessage({ id: "recovery.shown.title" })}
      </h3>
      <p className="text-sm">{intl.formatMessage({ id: "recovery.shown.intro" })}</p>
      <ol
        aria-label={intl.formatMessage({ id: "recovery.shown.listLabel" })}
        className="grid grid-cols-2 gap-2 rounded-md bg-muted p-3 font-mono text-sm"
      >
        {codes.map((code) => (
          <li key={code} className="text-center tracking-wider">
            {code}
          </li>
        ))}
      </ol>
      <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "recovery.shown.onlyOnce" })}</p>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          onClick={() =>
            void navigator.clipboard.writeText(codes.join("\n")).then(
              () => setCopied(true),
              () =>
                notify.error(intl.formatMessage({ id: "toast.error" }), intl.formatMessage({ id: "recovery.shown.copyFailed" })),
            )
          }
        >
          {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
          {intl.formatMessage({ id: copied ? "recovery.shown.copied" : "recovery.shown.copy" })}
        </Button>
        <Button type="button" variant="outline" onClick={download}>
          <DownloadIcon aria-hidden="true" />
          {intl.formatMessage({ id: "recovery.shown.download" })}
        </Button>
        <Button type="button" onClick={onSaved}>
          {intl.formatMessage({ id: "recovery.shown.saved" })}
        </Button>
      </div>
    </section>
  );
}

/**
 * Settings' line about the recovery codes (how many are left) and "Generate new recovery codes",
 * which asks for the second step first when this session has not proven it.
 */
export function RecoveryCodes({ onGenerated }: { onGenerated: (codes: string[]) => void }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: recoveryCodesKey, queryFn: recoveryCodesStatus });
  const fresh = useFreshSecondStep("change");
  const [busy, setBusy] = useState(false);

  function generate() {
    let codes: string[] = [];
    void fresh.run(
      async () => {
        setBusy(true);
        try {
          codes = await generateRecoveryCodes();
        } finally {
          setBusy(false);
        }
      },
      (error) => {
        void refreshRecoveryCodesStatus(queryClient);
        if (error) {
          notify.error(intl.formatMessage({ id: "toast.error" }), intl.formatMessage({ id: "recovery.generate.failed" }));
          return;
        }
        onGenerated(codes);
      },
    );
  }

  const left = status.data?.remaining ?? 0;
  return (
    <div className="flex flex-col gap-2">
      {fresh.dialog}
      {status.data && (
        <p className="text-sm text-muted-foreground">
          {status.data.created_at === null
            ? intl.formatMessage({ id: "recovery.status.none" })
            : left === 0
              ? intl.formatMessage({ id: "recovery.status.allUsed" })
              : intl.formatMessage({ id: "recovery.status.left" }, { left, date: formatDay(status.data.created_at) })}
        </p>
      )}
      <div>
        <ConfirmDialog
          trigger={
            <Button variant="outline" disabled={busy}>
              {intl.formatMessage({ id: busy ? "recovery.generate.busy" : "recovery.generate.button" })}
            </Button>
          }
          title={intl.formatMessage({ id: "recovery.generate.title" })}
          description={intl.formatMessage({ id: "recovery.generate.description" })}
          confirmLabel={intl.formatMessage({ id: "recovery.generate.confirm" })}
          onConfirm={generate}
        />
      </div>
    </div>
  );
}
