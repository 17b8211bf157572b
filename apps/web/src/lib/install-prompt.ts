/**
 * Installing the app on the device (ADR 0031, 0066): whether it already runs installed, whether it
 * is an iPhone or iPad (where Safari has no install prompt: Share → Add to Home Screen), and the
 * browser's own install prompt (`beforeinstallprompt`, Chromium), kept from the moment the app
 * starts, since the browser offers it once, early, before any screen that would use it has loaded.
 */

/** The event Chromium gives for its install prompt (not in TypeScript's DOM types). */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

/** What tells an iPhone or iPad, so that tests can give their own. */
export interface AppleMobileSigns {
  userAgent: string;
  platform: string;
  maxTouchPoints: number;
}

export function isAppleMobile(signs: AppleMobileSigns): boolean {
  // iPadOS says it is a Mac; a Mac with a touch screen is an iPad.
  return /iPhone|iPad|iPod/.test(signs.userAgent) || (signs.platform === "MacIntel" && signs.maxTouchPoints > 1);
}

/** The app runs installed (from the home screen or as a desktop app), not in a browser tab. */
export function runsInstalled(): boolean {
  const nav = navigator as Navigator & { standalone?: boolean };
  return nav.standalone === true || (window.matchMedia?.("(display-mode: standalone)").matches ?? false);
}

export function thisDevice(): AppleMobileSigns {
  return { userAgent: navigator.userAgent, platform: navigator.platform ?? "", maxTouchPoints: navigator.maxTouchPoints ?? 0 };
}

let kept: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();

/** Keeps the browser's install prompt for later (called once as the app starts); it is gone once installed. */
export function keepInstallPrompt(): void {
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    kept = event as InstallPromptEvent;
    listeners.forEach((listener) => listener());
  });
  window.addEventListener("appinstalled", () => {
    kept = null;
    listeners.forEach((listener) => listener());
  });
}

/** The kept install prompt, or null when the browser offers none (now). */
export function installPrompt(): InstallPromptEvent | null {
  return kept;
}

/** Calls `listener` when the prompt comes or goes; answers the unsubscribe. */
export function onInstallPromptChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Shows the browser's prompt (once: the browser will not show the same one twice). Answers whether it was installed. */
export async function promptInstall(): Promise<boolean> {
  const prompt = kept;
  if (!prompt) return false;
  kept = null;
  listeners.forEach((listener) => listener());
  await prompt.prompt();
  return (await prompt.userChoice).outcome === "accepted";
}
