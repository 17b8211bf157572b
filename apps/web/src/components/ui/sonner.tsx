import type * as React from "react";
import { CircleCheckIcon, InfoIcon, Loader2Icon, OctagonXIcon, TriangleAlertIcon } from "lucide-react";
import { Toaster as Sonner, type ToasterProps } from "sonner";

/**
 * Sonner's toaster in the app's colours. The app has no theme switcher yet, so the theme is light
 * unless a caller says otherwise ("system" would also need matchMedia, which jsdom lacks).
 */
function Toaster({ theme = "light", ...props }: ToasterProps) {
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
          "--normal-bg": "var(--popover)",
          "--normal-text": "var(--popover-foreground)",
          "--normal-border": "var(--border)",
          "--border-radius": "var(--radius)",
          // Rich colours darkened to meet WCAG AA contrast (4.5:1) on their pale backgrounds.
          "--success-text": "hsl(140, 100%, 20%)",
          "--error-text": "hsl(360, 100%, 35%)",
        } as React.CSSProperties
      }
      {...props}
    />
  );
}

export { Toaster };
