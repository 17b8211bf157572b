import { useState, type FormEvent } from "react";
import { ErrorCode } from "@memory-box/contract";
import { isAuthError } from "@supabase/auth-js";
import { useQueryClient } from "@tanstack/react-query";
import { KeyIcon, SmartphoneIcon } from "lucide-react";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { ItemList, ItemRow } from "@/components/item-list";
import { Button } from "@/components/ui/button";
import { passkeysSupported, webauthnProblem } from "@/features/auth/api/passkeys";
import { generateRecoveryCodes, refreshRecoveryCodesStatus } from "@/features/auth/api/recovery-codes";
import { addSecurityKey, enrollAuthenticatorApp, removeFactor, verifyFactor } from "@/features/auth/api/second-factor";
import { useFreshSecondStep } from "@/features/auth/components/fresh-second-step";
import { OneTimeCodeField } from "@/features/auth/components/one-time-code-field";
import { RecoveryCodes, RecoveryCodesShown } from "@/features/auth/components/recovery-codes";
import { getAuthClient } from "@/lib/auth-client";
import { useAuth } from "@/lib/auth-context";
import { formatDay } from "@/lib/dates";
import { useIntl, wordSpace } from "@/lib/intl";
import { notify } from "@/lib/notify";

interface Enrolment {
  id: string;
  qrCode: string;
  secret: string;
  /** The account's first second step: its recovery codes are made and shown once it is on. */
  first: boolean;
}

const kinds = {
  totp: {
    label: "secondFactors.app",
    removeTitle: "secondFactors.removeAppTitle",
    removed: "secondFactors.appRemoved",
    Icon: SmartphoneIcon,
  },
  webauthn: {
    label: "secondFactors.key",
    removeTitle: "secondFactors.removeKeyTitle",
    removed: "secondFactors.keyRemoved",
    Icon: KeyIcon,
  },
} as const;

/**
 * Two-step verification: the authenticator apps and security keys added (kind, date, "Remove"),
 * and adding either (an app: scan the QR code or type the key, then confirm with a code; a key:
 * touch it when the browser asks). Once one is added, every new sign-in asks for it. With the
 * first one come the recovery codes (ADR 0042), shown once; new ones can be made later.
 */
export function SecondFactors() {
  const intl = useIntl();
  const { user } = useAuth();
  const [enrolment, setEnrolment] = useState<Enrolment>();
  const [busy, setBusy] = useState<"app" | "key">();
  const factors = (user?.factors ?? []).filter((factor) => factor.status === "verified");
  const fresh = useFreshSecondStep();
  const queryClient = useQueryClient();
  const [shownCodes, setShownCodes] = useState<string[]>();

  /** After the first second step is on: its recovery codes, to show once. */
  async function makeFirstCodes() {
    try {
      setShownCodes(await generateRecoveryCodes());
    } catch {
      notify.error(intl.formatMessage({ id: "toast.error" }), intl.formatMessage({ id: "recovery.first.failed" }));
    } finally {
      void refreshRecoveryCodesStatus(queryClient);
    }
  }

  async function startApp() {
    setBusy("app");
    try {
      const { data, error } = await enrollAuthenticatorApp(`Authenticator app ${new Date().toISOString().slice(0, 19)}`);
      if (error || data.type !== "totp")
        notify.error(
          intl.formatMessage({ id: "toast.error" }),
          error?.message ?? intl.formatMessage({ id: "secondFactors.appFailed" }),
        );
      else setEnrolment({ id: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret, first: factors.length === 0 });
    } catch {
      notify.error(intl.formatMessage({ id: "toast.error" }), intl.formatMessage({ id: "secondFactors.appFailedRetry" }));
    } finally {
      setBusy(undefined);
    }
  }

  async function startKey() {
    setBusy("key");
    const first = factors.length === 0;
    try {
      const { error } = await addSecurityKey(`Security key ${new Date().toISOString().slice(0, 19)}`);
      if (error) notify.error(intl.formatMessage({ id: "toast.error" }), webauthnProblem(error, "add"));
      else {
        notify.success(
          intl.formatMessage({ id: "secondFactors.keyAdded" }),
          intl.formatMessage({ id: "secondFactors.keyAddedDetail" }),
        );
        if (first) await makeFirstCodes();
      }
    } catch (error) {
      notify.error(intl.formatMessage({ id: "toast.error" }), webauthnProblem(error, "add"));
    } finally {
      setBusy(undefined);
    }
  }

  function remove(factorId: string, removed: string) {
    void fresh.run(
      () => removeFactor(factorId),
      (error) => void afterRemoval(error, removed),
    );
  }

  async function afterRemoval(error: unknown, removed: string) {
    if (error) {
      notify.error(
        intl.formatMessage({ id: "toast.error" }),
        error instanceof Error ? error.message : intl.formatMessage({ id: "secondFactors.removeFailed" }),
      );
      return;
    }
    // A new session answer carries the account's factors as they are now.
    await getAuthClient().refreshSession();
    // With the last second step, the recovery codes went too.
    void refreshRecoveryCodesStatus(queryClient);
    notify.success(removed, intl.formatMessage({ id: "secondFactors.removedDetail" }));
  }

  return (
    <div className="flex flex-col gap-4">
      {fresh.dialog}
      {factors.length > 0 ? (
        <ItemList>
          {factors.map((factor) => {
            const kind = factor.factor_type === "webauthn" ? kinds.webauthn : kinds.totp;
            const { Icon } = kind;
            const label = intl.formatMessage({ id: kind.label });
            return (
              <ItemRow
                key={factor.id}
                label={label}
                icon={Icon}
                title={<span className="font-medium">{label}</span>}
                detail={intl.formatMessage({ id: "secondFactors.added" }, { day: formatDay(factor.created_at) })}
                action={
                  <ConfirmDialog
                    trigger={
                      <Button variant="outline" size="sm">
                        {intl.formatMessage({ id: "secondFactors.remove" })}
                      </Button>
                    }
                    title={intl.formatMessage({ id: kind.removeTitle })}
                    description={intl.formatMessage({ id: "secondFactors.removeDescription" })}
                    confirmLabel={intl.formatMessage({ id: "secondFactors.remove" })}
                    destructive
                    onConfirm={() => remove(factor.id, intl.formatMessage({ id: kind.removed }))}
                  />
                }
              />
            );
          })}
        </ItemList>
      ) : (
        <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "secondFactors.off" })}</p>
      )}
      {factors.length > 0 && !shownCodes && !enrolment && <RecoveryCodes onGenerated={setShownCodes} />}
      {shownCodes ? (
        <RecoveryCodesShown
          codes={shownCodes}
          onSaved={() => {
            setShownCodes(undefined);
            notify.success(
              intl.formatMessage({ id: "recovery.saved.title" }),
              intl.formatMessage({ id: "recovery.saved.detail" }),
            );
          }}
        />
      ) : enrolment ? (
        <ConfirmEnrolment
          enrolment={enrolment}
          onDone={(verified) => {
            setEnrolment(undefined);
            if (verified && enrolment.first) void makeFirstCodes();
          }}
        />
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" disabled={busy !== undefined} onClick={() => void startApp()}>
            {busy === "app"
              ? intl.formatMessage({ id: "secondFactors.preparing" })
              : intl.formatMessage({ id: "secondFactors.addApp" })}
          </Button>
          {passkeysSupported() && (
            <Button variant="outline" disabled={busy !== undefined} onClick={() => void startKey()}>
              {busy === "key"
                ? intl.formatMessage({ id: "secondStep.waitingKey" })
                : intl.formatMessage({ id: "secondFactors.addKey" })}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

/** The QR code and key of a new app, and the code that confirms it was set up right. */
function ConfirmEnrolment({ enrolment, onDone }: { enrolment: Enrolment; onDone: (verified: boolean) => void }) {
  const intl = useIntl();
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const digits = code.replace(/\D/g, "");

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || digits.length !== 6) return;
    setBusy(true);
    setProblem(undefined);
    try {
      const { error } = await verifyFactor(enrolment.id, digits);
      if (!error) {
        notify.success(
          intl.formatMessage({ id: "secondFactors.appAdded" }),
          intl.formatMessage({ id: "secondFactors.appAddedDetail" }),
        );
        onDone(true);
        return;
      }
      setProblem(
        isAuthError(error) && error.code === ErrorCode.mfa_verification_failed
          ? intl.formatMessage({ id: "secondFactors.codeWrong" })
          : error.message,
      );
    } catch {
      setProblem(intl.formatMessage({ id: "auth.code.checkFailed" }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="flex flex-col gap-4 rounded-lg border p-4" onSubmit={(event) => void handleSubmit(event)}>
      <p className="text-sm">{intl.formatMessage({ id: "secondFactors.scan" })}</p>
      <img
        src={enrolment.qrCode}
        alt={intl.formatMessage({ id: "secondFactors.qrAlt" })}
        className="size-44 self-center rounded bg-white p-2"
      />
      <p className="text-sm text-muted-foreground">
        {intl.formatMessage({ id: "secondFactors.cantScan" })}
        {wordSpace}
        <code className="font-mono break-all text-foreground">{enrolment.secret}</code>
      </p>
      <OneTimeCodeField
        label={intl.formatMessage({ id: "secondFactors.codeLabel" })}
        value={code}
        onChange={(value) => {
          setCode(value);
          setProblem(undefined);
        }}
        problem={problem}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy || digits.length !== 6}>
          {busy ? intl.formatMessage({ id: "auth.code.checking" }) : intl.formatMessage({ id: "secondFactors.turnOn" })}
        </Button>
        <Button
          type="button"
          variant="ghost"
          onClick={() => {
            void removeFactor(enrolment.id);
            onDone(false);
          }}
        >
          {intl.formatMessage({ id: "common.cancel" })}
        </Button>
      </div>
    </form>
  );
}
