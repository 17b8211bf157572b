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
import { useIntl } from "@/lib/intl";
import { notify } from "@/lib/notify";

interface Enrolment {
  id: string;
  qrCode: string;
  secret: string;
  /** The account's first second step: its recovery codes are made and shown once it is on. */
  first: boolean;
}

const kinds = {
  totp: { label: "Authenticator app", Icon: SmartphoneIcon },
  webauthn: { label: "Security key", Icon: KeyIcon },
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
      if (error || data.type !== "totp") notify.error("Error", error?.message ?? "The authenticator app could not be added.");
      else setEnrolment({ id: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret, first: factors.length === 0 });
    } catch {
      notify.error("Error", "The authenticator app could not be added. Please try again.");
    } finally {
      setBusy(undefined);
    }
  }

  async function startKey() {
    setBusy("key");
    const first = factors.length === 0;
    try {
      const { error } = await addSecurityKey(`Security key ${new Date().toISOString().slice(0, 19)}`);
      if (error) notify.error("Error", webauthnProblem(error, "add"));
      else {
        notify.success("Security key added", "From now on, signing in also asks for the key.");
        if (first) await makeFirstCodes();
      }
    } catch (error) {
      notify.error("Error", webauthnProblem(error, "add"));
    } finally {
      setBusy(undefined);
    }
  }

  function remove(factorId: string, label: string) {
    void fresh.run(
      () => removeFactor(factorId),
      (error) => void afterRemoval(error, label),
    );
  }

  async function afterRemoval(error: unknown, label: string) {
    if (error) {
      notify.error("Error", error instanceof Error ? error.message : "It could not be removed. Please try again.");
      return;
    }
    // A new session answer carries the account's factors as they are now.
    await getAuthClient().refreshSession();
    // With the last second step, the recovery codes went too.
    void refreshRecoveryCodesStatus(queryClient);
    notify.success(`${label} removed`, "Signing in needs only your password again.");
  }

  return (
    <div className="flex flex-col gap-4">
      {fresh.dialog}
      {factors.length > 0 ? (
        <ItemList>
          {factors.map((factor) => {
            const { label, Icon } = factor.factor_type === "webauthn" ? kinds.webauthn : kinds.totp;
            return (
              <ItemRow
                key={factor.id}
                label={label}
                icon={Icon}
                title={<span className="font-medium">{label}</span>}
                detail={`Added ${formatDay(factor.created_at)}`}
                action={
                  <ConfirmDialog
                    trigger={
                      <Button variant="outline" size="sm">
                        Remove
                      </Button>
                    }
                    title={`Remove this ${label.toLowerCase()}?`}
                    description="Signing in will need only your password, unless another second step is left. You can add one again at any time."
                    confirmLabel="Remove"
                    destructive
                    onConfirm={() => remove(factor.id, label)}
                  />
                }
              />
            );
          })}
        </ItemList>
      ) : (
        <p className="text-sm text-muted-foreground">
          Off. With an authenticator app or a security key, signing in also asks for a code from your phone or a touch of the key,
          so a password alone is not enough.
        </p>
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
            {busy === "app" ? "Preparing..." : "Add authenticator app"}
          </Button>
          {passkeysSupported() && (
            <Button variant="outline" disabled={busy !== undefined} onClick={() => void startKey()}>
              {busy === "key" ? "Waiting for your key..." : "Add security key"}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

/** The QR code and key of a new app, and the code that confirms it was set up right. */
function ConfirmEnrolment({ enrolment, onDone }: { enrolment: Enrolment; onDone: (verified: boolean) => void }) {
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
        notify.success("Authenticator app added", "From now on, signing in also asks for a code from the app.");
        onDone(true);
        return;
      }
      setProblem(
        isAuthError(error) && error.code === ErrorCode.mfa_verification_failed
          ? "That code is not right. Check that the app shows Memory Box, and use its newest code."
          : error.message,
      );
    } catch {
      setProblem("The code could not be checked just now. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="flex flex-col gap-4 rounded-lg border p-4" onSubmit={(event) => void handleSubmit(event)}>
      <p className="text-sm">
        Scan this code with an authenticator app (such as 2FAS, Aegis, Google Authenticator or 1Password), then enter the 6-digit
        code it shows.
      </p>
      <img
        src={enrolment.qrCode}
        alt="QR code to scan with your authenticator app"
        className="size-44 self-center rounded bg-white p-2"
      />
      <p className="text-sm text-muted-foreground">
        Can&apos;t scan it? Enter this key in the app:{" "}
        <code className="font-mono break-all text-foreground">{enrolment.secret}</code>
      </p>
      <OneTimeCodeField
        label="Code from the app"
        value={code}
        onChange={(value) => {
          setCode(value);
          setProblem(undefined);
        }}
        problem={problem}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy || digits.length !== 6}>
          {busy ? "Checking..." : "Turn on"}
        </Button>
        <Button
          type="button"
          variant="ghost"
          onClick={() => {
            void removeFactor(enrolment.id);
            onDone(false);
          }}
        >
          Cancel
        </Button>
      </div>
    </form>
  );
}
