import {
  defaultPushPreferences,
  type DeviceNotifications as DeviceAnswer,
  type NotificationTopic,
  type PushPreferences,
} from "@memory-box/contract";
import type { WebMessageId } from "@memory-box/messages/web";
import { CircleAlertIcon, InfoIcon } from "lucide-react";
import { useId, useState, type ReactNode } from "react";

import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { useDeviceNotifications, useKeepDeviceAnswer } from "@/features/notifications/api/notifications";
import {
  browserPushEnvironment,
  deviceTimeZone,
  PermissionRefused,
  pushSupport,
  savePreferences,
  turnOff,
  turnOn,
  type PushEnvironment,
} from "@/features/notifications/utils/push-device";
import { ApiError } from "@/lib/api-client";
import { useIntl } from "@/lib/intl";
import { cn } from "@/lib/utils";

const topics: readonly { topic: NotificationTopic; label: WebMessageId }[] = [
  { topic: "memories", label: "notifications.device.topic.memories" },
  { topic: "comments", label: "notifications.device.topic.comments" },
  { topic: "reactions", label: "notifications.device.topic.reactions" },
  { topic: "on_this_day", label: "notifications.device.topic.onThisDay" },
];

type Busy = "on" | "off" | "save" | null;

/**
 * Notifications on this device (issue #33): a switch that asks the browser's permission and
 * subscribes, then what to be told about, when "On this day" comes, quiet hours and whether the
 * memory's words may show. Each device has its own; the device's time zone goes with them.
 * `environment` is the browser's unless a test gives its own.
 */
export function DeviceNotifications({ environment }: { environment?: PushEnvironment }) {
  const intl = useIntl();
  const [env] = useState(() => environment ?? browserPushEnvironment());
  const [support, setSupport] = useState(() => pushSupport(env));
  const device = useDeviceNotifications();
  const keepAnswer = useKeepDeviceAnswer();
  const [busy, setBusy] = useState<Busy>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [draft, setDraft] = useState<PushPreferences | null>(null);
  const [saved, setSaved] = useState(false);
  const genericTitle = intl.formatMessage({ id: "notifications.push.generic" });

  if (support === "ios-not-installed")
    return (
      <Notice
        title={intl.formatMessage({ id: "notifications.device.install.title" })}
        text={intl.formatMessage({ id: "notifications.device.install.text" })}
      />
    );
  if (support === "unsupported")
    return (
      <Notice
        title={intl.formatMessage({ id: "notifications.device.unsupported.title" })}
        text={intl.formatMessage({ id: "notifications.device.unsupported.text" })}
      />
    );
  if (device.isError)
    return (
      <p className="text-sm text-destructive" role="alert">
        {intl.formatMessage({ id: "notifications.device.loadFailed" })}
      </p>
    );
  if (!device.data) return <Spinner>{intl.formatMessage({ id: "notifications.device.loading" })}</Spinner>;

  const on = device.data.subscribed && support !== "denied";
  const preferences = draft ?? device.data.preferences ?? { ...defaultPushPreferences, time_zone: deviceTimeZone() };
  const change = (next: Partial<PushPreferences>) => {
    setSaved(false);
    setDraft({ ...preferences, ...next });
  };

  async function run(kind: Exclude<Busy, null>, work: () => Promise<DeviceAnswer | void>) {
    setBusy(kind);
    setProblem(null);
    setSaved(false);
    try {
      const answer = await work();
      keepAnswer(answer ?? { subscribed: false, preferences: null });
      setDraft(null);
      if (kind === "save") setSaved(true);
    } catch (error) {
      if (error instanceof PermissionRefused && pushSupport(env) === "denied") setSupport("denied");
      else if (error instanceof PermissionRefused) setProblem(intl.formatMessage({ id: "notifications.device.notAllowed" }));
      else setProblem(problemText(error));
    } finally {
      setBusy(null);
    }
  }
  const problemText = (error: unknown) =>
    error instanceof ApiError && error.status < 500 ? error.message : intl.formatMessage({ id: "notifications.device.failed" });
  const withZone = (chosen: PushPreferences) => ({ ...chosen, time_zone: deviceTimeZone() });

  return (
    <div className="flex flex-col gap-4">
      <Switch
        label={intl.formatMessage({ id: "notifications.device.switch" })}
        hint={intl.formatMessage({ id: on ? "notifications.device.switchOn" : "notifications.device.switchOff" })}
        checked={on}
        disabled={busy !== null || support === "denied"}
        onChange={(next) =>
          void run(next ? "on" : "off", () => (next ? turnOn(env, withZone(preferences), genericTitle) : turnOff(env)))
        }
      />
      {busy === "on" || busy === "off" ? (
        <Spinner>
          {intl.formatMessage({ id: busy === "on" ? "notifications.device.turningOn" : "notifications.device.turningOff" })}
        </Spinner>
      ) : null}
      {support === "denied" && (
        <Notice
          title={intl.formatMessage({ id: "notifications.device.denied.title" })}
          text={intl.formatMessage({ id: "notifications.device.denied.text" })}
          destructive
        />
      )}
      {problem && (
        <Alert variant="destructive">
          <CircleAlertIcon aria-hidden="true" />
          <AlertTitle>{intl.formatMessage({ id: "notifications.device.problem" })}</AlertTitle>
          <AlertDescription>
            <p>{problem}</p>
          </AlertDescription>
        </Alert>
      )}
      {on && (
        <form
          className="flex flex-col gap-5 border-t pt-4"
          onSubmit={(event) => {
            event.preventDefault();
            void run("save", () => savePreferences(env, withZone(preferences), genericTitle));
          }}
        >
          <fieldset className="flex flex-col gap-2" disabled={busy !== null}>
            <legend className="mb-1 text-sm font-medium">{intl.formatMessage({ id: "notifications.device.topics" })}</legend>
            {topics.map(({ topic, label }) => (
              <Check key={topic} checked={preferences[topic]} onChange={(checked) => change({ [topic]: checked })}>
                {intl.formatMessage({ id: label })}
              </Check>
            ))}
          </fieldset>
          <fieldset className="flex flex-col gap-2" disabled={busy !== null || !preferences.on_this_day}>
            <TimeField
              label={intl.formatMessage({ id: "notifications.device.onThisDayAt" })}
              value={preferences.on_this_day_at}
              onChange={(on_this_day_at) => change({ on_this_day_at })}
            />
          </fieldset>
          <fieldset className="flex flex-col gap-2" disabled={busy !== null}>
            <legend className="mb-1 text-sm font-medium">{intl.formatMessage({ id: "notifications.device.quiet" })}</legend>
            <Check
              checked={preferences.quiet_hours !== null}
              onChange={(checked) => change({ quiet_hours: checked ? (defaultPushPreferences.quiet_hours ?? null) : null })}
              hint={intl.formatMessage({ id: "notifications.device.quietHint" })}
            >
              {intl.formatMessage({ id: "notifications.device.quietOn" })}
            </Check>
            {preferences.quiet_hours && (
              <div className="flex flex-wrap gap-4 ps-6">
                <TimeField
                  label={intl.formatMessage({ id: "notifications.device.quietFrom" })}
                  value={preferences.quiet_hours.from}
                  onChange={(from) => change({ quiet_hours: { ...preferences.quiet_hours!, from } })}
                />
                <TimeField
                  label={intl.formatMessage({ id: "notifications.device.quietTo" })}
                  value={preferences.quiet_hours.to}
                  onChange={(to) => change({ quiet_hours: { ...preferences.quiet_hours!, to } })}
                />
              </div>
            )}
          </fieldset>
          <fieldset className="flex flex-col gap-2" disabled={busy !== null}>
            <legend className="mb-1 text-sm font-medium">{intl.formatMessage({ id: "notifications.device.privacy" })}</legend>
            <Check
              checked={preferences.show_words}
              onChange={(show_words) => change({ show_words })}
              hint={intl.formatMessage({ id: "notifications.device.showWordsHint" })}
            >
              {intl.formatMessage({ id: "notifications.device.showWords" })}
            </Check>
          </fieldset>
          <p className="text-xs text-muted-foreground">
            {intl.formatMessage({ id: "notifications.device.timeZone" }, { zone: deviceTimeZone() })}
          </p>
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={busy !== null || draft === null}>
              {intl.formatMessage({ id: busy === "save" ? "notifications.device.saving" : "notifications.device.save" })}
            </Button>
            <p role="status" className="text-sm text-muted-foreground">
              {saved ? intl.formatMessage({ id: "notifications.device.saved" }) : ""}
            </p>
          </div>
        </form>
      )}
    </div>
  );
}

/** Why the switch is not there (or cannot be used), and what to do. */
function Notice({ title, text, destructive = false }: { title: string; text: string; destructive?: boolean }) {
  const Icon = destructive ? CircleAlertIcon : InfoIcon;
  return (
    <Alert variant={destructive ? "destructive" : "default"}>
      <Icon aria-hidden="true" />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>
        <p>{text}</p>
      </AlertDescription>
    </Alert>
  );
}

/** An on/off switch with its label and a line under it. */
function Switch({
  label,
  hint,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  hint: string;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {hint}
        </p>
      </div>
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        aria-describedby={`${id}-hint`}
        disabled={disabled}
        onClick={() => onChange(!checked)}
        className={cn(
          "inline-flex h-6 w-11 shrink-0 items-center rounded-full border-2 border-transparent transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-50",
          checked ? "bg-primary" : "bg-input dark:bg-input/80",
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            "block size-5 rounded-full bg-background shadow-sm transition-transform",
            checked && "ltr:translate-x-5 rtl:-translate-x-5",
          )}
        />
      </button>
    </div>
  );
}

function Check({
  checked,
  onChange,
  hint,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-0.5">
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          className="size-4 accent-primary"
          checked={checked}
          aria-describedby={hint ? id : undefined}
          onChange={(event) => onChange(event.target.checked)}
        />
        {children}
      </label>
      {hint && (
        <p id={id} className="ps-6 text-sm text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}

function TimeField({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <Input
        id={id}
        type="time"
        required
        value={value}
        onChange={(event) => {
          if (/^([01]\d|2[0-3]):[0-5]\d$/.test(event.target.value)) onChange(event.target.value);
        }}
        className="w-32"
      />
    </div>
  );
}
