import type * as React from "react";
import { useSyncExternalStore } from "react";
import { CircleCheckIcon, InfoIcon, Loader2Icon, OctagonXIcon, TriangleAlertIcon } from "lucide-react";
import { Toaster as Sonner, type ToasterProps } from "sonner";

/** The member's choice on <html> (lib/theme.ts); with none, the system's setting, where the browser can tell it. */
function pageTheme(): NonNullable<ToasterProps["theme"]> {
  const classes = document.documentElement.classList;
  if (classes.contains("dark")) return "dark";
  if (classes.contains("light")) return "light";
  return typeof window.matchMedia === "function" ? "system" : "light";
}

function subscribeToPageTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  return () => observer.disconnect();
}

/**
 * Sonner's toaster in the app's colours (ADR 0032): every colour a token, the rich success and
 * error toasts too, so they are the app's in light and in dark. It is light or dark as the page
 * is, following a change made in Settings while it is shown.
 */
function Toaster(props: ToasterProps) {
  const theme = useSyncExternalStore(subscribeToPageTheme, pageTheme, () => "light" as const);
  return (
    <Sonner
      theme={theme}
      className="toaster group"
      icons={{
        success: <CircleCheckIcon className="size-4" />,
        info: <InfoIcon className="size-4" />,
        warning: <TriangleAlertIcon className="size-4" />,
        error: <OctagonXIcon className="size-4" />,
        loading: <Loader2Icon className="size-4 animate-spin" />,
      }}
      style={
        {
          // The page's own font, not sonner's system stack, which can differ from it.
          fontFamily: "inherit",
          "--normal-bg": "var(--popover)",
          "--normal-text": "var(--popover-foreground)",
          "--normal-border": "var(--border)",
          "--border-radius": "var(--radius)",
          "--success-bg": "var(--success-surface)",
          "--success-text": "var(--success)",
          "--success-border": "color-mix(in oklch, var(--success) 25%, var(--success-surface))",
          "--error-bg": "var(--problem-surface)",
          "--error-text": "var(--problem)",
          "--error-border": "color-mix(in oklch, var(--problem) 25%, var(--problem-surface))",
          // A calm note (notify.info) in the page's own colours, not sonner's blue.
          "--info-bg": "var(--popover)",
          "--info-text": "var(--popover-foreground)",
          "--info-border": "var(--border)",
        } as React.CSSProperties
      }
      {...props}
    />
  );
}

export { Toaster };
