import type { WebMessageId } from "@memory-box/messages/web";
import { CalendarHeart, Smartphone, UserPlus, WifiOff, type LucideIcon } from "lucide-react";
import { type ReactNode, useEffect, useRef, useSyncExternalStore } from "react";
import { Link } from "react-router";

import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { paths } from "@/config/paths";
import {
  installPrompt,
  isAppleMobile,
  onInstallPromptChange,
  promptInstall,
  runsInstalled,
  thisDevice,
} from "@/lib/install-prompt";
import { useIntl } from "@/lib/intl";

export interface FirstRunGuideProps {
  /** Owners get the step about inviting the partner, pointing to Members. */
  owner: boolean;
  /** The member asked for it ("Show the guide again"): focus moves into it. */
  focusOnShow: boolean;
  onDismiss: () => void;
}

/**
 * The first-run guide on home (ADR 0066): a card above the memories, not a dialog, so it never
 * stands in the way of what the member came to do. Its steps: "On this day", the app on the phone
 * (not shown when it already runs installed), what works offline, and for owners inviting the
 * partner. "Got it" or Escape closes it for good, on every device.
 */
export function FirstRunGuideCard({ owner, focusOnShow, onDismiss }: FirstRunGuideProps) {
  const intl = useIntl();
  const heading = useRef<HTMLHeadingElement>(null);
  const card = useRef<HTMLElement>(null);
  const t = (id: WebMessageId) => intl.formatMessage({ id });

  useEffect(() => {
    if (focusOnShow) heading.current?.focus();
  }, [focusOnShow]);

  const close = () => {
    // Focus inside the card would fall to the page's start as it goes: it goes to home's heading instead.
    if (card.current?.contains(document.activeElement)) {
      const pageHeading = document.querySelector<HTMLElement>("h1");
      if (pageHeading) {
        pageHeading.tabIndex = -1;
        pageHeading.focus();
      }
    }
    onDismiss();
  };

  return (
    <section
      ref={card}
      aria-labelledby="first-run-guide-heading"
      className="mb-6"
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.stopPropagation();
          close();
        }
      }}
    >
      <Card>
        <CardHeader>
          <h2 id="first-run-guide-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold outline-none">
            {t("guide.title")}
          </h2>
          <CardDescription>{t("guide.intro")}</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-4 sm:grid-cols-2">
            <Step icon={CalendarHeart} title={t("guide.onThisDay.title")}>
              <p>{t("guide.onThisDay.text")}</p>
            </Step>
            <InstallStep />
            <Step icon={WifiOff} title={t("guide.offline.title")}>
              <p>{t("guide.offline.text")}</p>
            </Step>
            {owner && (
              <Step icon={UserPlus} title={t("guide.invite.title")}>
                <p>{t("guide.invite.text")}</p>
                <Button asChild variant="outline" size="sm" className="mt-2 self-start">
                  <Link to={paths.members}>{t("guide.invite.link")}</Link>
                </Button>
              </Step>
            )}
          </ul>
        </CardContent>
        <div className="flex justify-end px-6">
          <Button onClick={close}>{t("guide.close")}</Button>
        </div>
      </Card>
    </section>
  );
}

function Step({ icon: Icon, title, children }: { icon: LucideIcon; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-3">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
        <Icon aria-hidden="true" className="size-5" strokeWidth={1.75} />
      </span>
      <div className="flex min-w-0 flex-col gap-1 text-sm text-muted-foreground">
        <h3 className="font-medium text-foreground">{title}</h3>
        {children}
      </div>
    </li>
  );
}

/**
 * Installing: the browser's own prompt where it offers one (kept since the app started); otherwise
 * the steps by hand, Safari's on iPhone and iPad first. Nothing once the app runs installed.
 */
function InstallStep() {
  const intl = useIntl();
  const prompt = useSyncExternalStore(onInstallPromptChange, installPrompt, () => null);
  if (runsInstalled()) return null;
  const manual = intl.formatMessage({ id: "guide.install.manual" });
  return (
    <Step icon={Smartphone} title={intl.formatMessage({ id: "guide.install.title" })}>
      <p>{intl.formatMessage({ id: "guide.install.text" })}</p>
      {prompt && !isAppleMobile(thisDevice()) ? (
        <Button variant="outline" size="sm" className="mt-2 self-start" onClick={() => void promptInstall()}>
          {intl.formatMessage({ id: "guide.install.button" })}
        </Button>
      ) : (
        <p>{manual}</p>
      )}
    </Step>
  );
}
