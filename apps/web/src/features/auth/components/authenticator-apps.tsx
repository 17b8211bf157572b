import { useState, type FormEvent } from "react";
import { ErrorCode } from "@memory-box/contract";
import { isAuthError } from "@supabase/auth-js";
import { SmartphoneIcon } from "lucide-react";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { Button } from "@/components/ui/button";
import { enrollAuthenticatorApp, removeFactor, verifyFactor } from "@/features/auth/api/second-factor";
import { OneTimeCodeField } from "@/features/auth/components/one-time-code-field";
import { getAuthClient } from "@/lib/auth-client";
import { useAuth } from "@/lib/auth-context";
import { formatDay } from "@/lib/dates";
import { notify } from "@/lib/notify";

interface Enrolment {
  id: string;
  qrCode: string;
  secret: string;
}

/**
 * Two-step verification with an authenticator app: the apps added (name, date, "Remove"), and
 * adding one (scan the QR code or type the key, then confirm with a code). Once one is added,
 * every new sign-in asks for its code.
 */
export function AuthenticatorApps() {
  const { user } = useAuth();
  const [enrolment, setEnrolment] = useState<Enrolment>();
  const [busy, setBusy] = useState(false);
  const factors = (user?.factors ?? []).filter((factor) => factor.status === "verified");

  async function start() {
    setBusy(true);
    try {
      const { data, error } = await enrollAuthenticatorApp(`Authenticator app ${new Date().toISOString().slice(0, 19)}`);
      if (error || data.type !== "totp") notify.error("Error", error?.message ?? "The authenticator app could not be added.");
      else setEnrolment({ id: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret });
    } catch {
      notify.error("Error", "The authenticator app could not be added. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  async function remove(factorId: string) {
    const { error } = await removeFactor(factorId);
    if (error) {
      notify.error("Error", error.message);
      return;
    }
    // A new session answer carries the account's factors as they are now.
    await getAuthClient().refreshSession();
    notify.success("Authenticator app removed", "Signing in needs only your password again.");
  }

  return (
    <div className="flex flex-col gap-4">
      {factors.length > 0 ? (
        <ul className="flex flex-col divide-y rounded-lg border bg-card">
          {factors.map((factor) => (
            <li
              key={factor.id}
              aria-label="Authenticator app"
              className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="flex items-start gap-3">
                <SmartphoneIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
                <div className="flex flex-col gap-1">
                  <span className="font-medium">Authenticator app</span>
                  <span className="text-sm text-muted-foreground">Added {formatDay(factor.created_at)}</span>
                </div>
              </div>
              <ConfirmDialog
                trigger={
                  <Button variant="outline" size="sm">
                    Remove
                  </Button>
                }
                title="Remove this authenticator app?"
                description="Signing in will need only your password. You can add an app again at any time."
                confirmLabel="Remove"
                destructive
                onConfirm={() => void remove(factor.id)}
              />
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">
          Off. With an authenticator app, signing in also asks for a code from your phone, so a password alone is not enough.
        </p>
      )}
      {enrolment ? (
        <ConfirmEnrolment enrolment={enrolment} onDone={() => setEnrolment(undefined)} />
      ) : (
        <Button variant="outline" className="self-start" disabled={busy} onClick={() => void start()}>
          {busy ? "Preparing..." : "Add authenticator app"}
        </Button>
      )}
    </div>
  );
}

/** The QR code and key of a new app, and the code that confirms it was set up right. */
function ConfirmEnrolment({ enrolment, onDone }: { enrolment: Enrolment; onDone: () => void }) {
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
        onDone();
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
            onDone();
          }}
        >
          Cancel
        </Button>
      </div>
    </form>
  );
}
