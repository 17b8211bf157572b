import type { FramePairing } from "@memory-box/contract";
import { formatUserCode, normalizeUserCode } from "@memory-box/contract";
import { CircleAlertIcon, CircleCheck, CircleX, MonitorSmartphone } from "lucide-react";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";

import { CardPage } from "@/components/card-page";
import { FieldProblem } from "@/components/field-problem";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { paths } from "@/config/paths";
import { isPairingGone, lookUpPairing, useApprovePairing, useDenyPairing } from "@/features/frames/api/frames";
import { FrameFields } from "@/features/frames/components/frame-fields";
import {
  displayOf,
  newFrameForm,
  problemsOf,
  selectionOf,
  type FrameForm,
  type FrameFormProblems,
} from "@/features/frames/utils/frame-form";
import { useIntl } from "@/lib/intl";

/** What a code looks like, as the frame shows it. */
const codeExample = formatUserCode("BCDFGHJK");

type Step =
  | { kind: "code"; problem?: "device.code.invalid" | "device.code.notFound" | "device.code.tooMany" | "device.code.failed" }
  | { kind: "checking" }
  | { kind: "form"; pairing: FramePairing }
  | { kind: "allowed"; name: string }
  | { kind: "denied" };

/**
 * `/device` (ADR 0076): a member enters the code a frame shows (or arrives with it from the frame's
 * QR code), names the frame and chooses what it shows, and allows it; or denies it. A code no frame
 * is waiting with (unknown, expired, answered) is said so, in the member's language.
 */
export function DevicePairing({ initialCode }: { initialCode: string }) {
  const intl = useIntl();
  const id = useId();
  const [code, setCode] = useState(initialCode);
  const [step, setStep] = useState<Step>({ kind: "code" });
  const [form, setForm] = useState<FrameForm>(() => newFrameForm(intl.formatMessage({ id: "frames.form.name.default" })));
  const [problems, setProblems] = useState<FrameFormProblems>({});
  const [answerFailed, setAnswerFailed] = useState(false);
  const approve = useApprovePairing();
  const deny = useDenyPairing();

  const check = async (typed: string) => {
    const normalized = normalizeUserCode(typed);
    if (!normalized) {
      setStep({ kind: "code", problem: "device.code.invalid" });
      return;
    }
    setStep({ kind: "checking" });
    const found = await lookUpPairing(normalized);
    if (found.kind === "waiting") setStep({ kind: "form", pairing: found.pairing });
    else
      setStep({
        kind: "code",
        problem:
          found.kind === "not-found"
            ? "device.code.notFound"
            : found.kind === "too-many"
              ? "device.code.tooMany"
              : "device.code.failed",
      });
  };

  // Arriving from the frame's QR code: the code is looked up at once.
  const checkedInitial = useRef(false);
  useEffect(() => {
    if (checkedInitial.current || !normalizeUserCode(initialCode)) return;
    checkedInitial.current = true;
    void check(initialCode);
    // Once, for the code the page opened with.
  }, [initialCode]);

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    void check(code);
  };

  const allow = (pairing: FramePairing) => {
    const found = problemsOf(form);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setAnswerFailed(false);
    approve.mutate(
      { user_code: pairing.user_code, name: form.name.trim(), selection: selectionOf(form), display: displayOf(form) },
      {
        onSuccess: (frame) => setStep({ kind: "allowed", name: frame.name }),
        onError: (error) => {
          if (isPairingGone(error)) setStep({ kind: "code", problem: "device.code.notFound" });
          else setAnswerFailed(true);
        },
      },
    );
  };

  const refuse = (pairing: FramePairing) => {
    setAnswerFailed(false);
    deny.mutate(pairing.user_code, {
      onSuccess: () => setStep({ kind: "denied" }),
      onError: (error) => {
        if (isPairingGone(error)) setStep({ kind: "code", problem: "device.code.notFound" });
        else setAnswerFailed(true);
      },
    });
  };

  if (step.kind === "allowed")
    return (
      <CardPage
        icon={CircleCheck}
        title={intl.formatMessage({ id: "device.ready.title" })}
        description={intl.formatMessage({ id: "device.ready.description" }, { name: step.name })}
      >
        <Button asChild>
          <Link to={paths.frames}>{intl.formatMessage({ id: "device.ready.settings" })}</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to={paths.home}>{intl.formatMessage({ id: "device.home" })}</Link>
        </Button>
      </CardPage>
    );

  if (step.kind === "denied")
    return (
      <CardPage
        icon={CircleX}
        title={intl.formatMessage({ id: "device.denied.title" })}
        description={intl.formatMessage({ id: "device.denied.description" })}
      >
        <Button asChild variant="outline">
          <Link to={paths.home}>{intl.formatMessage({ id: "device.home" })}</Link>
        </Button>
      </CardPage>
    );

  if (step.kind === "form") {
    const { pairing } = step;
    const answering = approve.isPending || deny.isPending;
    return (
      <CardPage
        icon={MonitorSmartphone}
        title={intl.formatMessage({ id: "device.form.title" })}
        description={intl.formatMessage(
          { id: "device.form.description" },
          { code: formatUserCode(normalizeUserCode(pairing.user_code) ?? pairing.user_code) },
        )}
      >
        <form
          noValidate
          className="flex flex-col gap-5"
          onSubmit={(event) => {
            event.preventDefault();
            allow(pairing);
          }}
        >
          <FrameFields value={form} onChange={setForm} problems={problems} disabled={answering} />
          {answerFailed && (
            <Alert variant="destructive">
              <CircleAlertIcon aria-hidden="true" />
              <AlertTitle>{intl.formatMessage({ id: "device.failed.title" })}</AlertTitle>
              <AlertDescription>
                <p>{intl.formatMessage({ id: "device.failed.description" })}</p>
              </AlertDescription>
            </Alert>
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={answering}>
              {intl.formatMessage({ id: approve.isPending ? "device.allowing" : "device.allow" })}
            </Button>
            <Button type="button" variant="outline" disabled={answering} onClick={() => refuse(pairing)}>
              {intl.formatMessage({ id: "device.deny" })}
            </Button>
          </div>
        </form>
      </CardPage>
    );
  }

  const problem = step.kind === "code" ? step.problem : undefined;
  return (
    <CardPage
      icon={MonitorSmartphone}
      title={intl.formatMessage({ id: "device.title" })}
      description={intl.formatMessage({ id: "device.description" })}
    >
      <form noValidate className="flex flex-col gap-4" onSubmit={submitCode}>
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-code`}>{intl.formatMessage({ id: "device.code" })}</Label>
          <Input
            id={`${id}-code`}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            placeholder={codeExample}
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            maxLength={32}
            className="font-mono text-lg tracking-widest uppercase"
            dir="ltr"
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-code-problem` : undefined}
          />
          <FieldProblem id={`${id}-code-problem`} problem={problem ? intl.formatMessage({ id: problem }) : undefined} />
        </div>
        <Button type="submit" disabled={step.kind === "checking"}>
          {intl.formatMessage({ id: step.kind === "checking" ? "device.checking" : "device.continue" })}
        </Button>
      </form>
    </CardPage>
  );
}
