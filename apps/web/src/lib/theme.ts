/**
 * Light or dark: the system's setting unless the member chose one (Settings → Appearance). The
 * choice lives on this device (localStorage) and becomes a `.light` or `.dark` class on <html>;
 * with neither, the stylesheet follows `prefers-color-scheme`. No React here: the first screen's
 * script applies it too, before anything is painted.
 */
export type ThemeChoice = "system" | "light" | "dark";

const storageKey = "memory-box-theme";

export function storedTheme(storage: Pick<Storage, "getItem"> = window.localStorage): ThemeChoice {
  try {
    const value = storage.getItem(storageKey);
    return value === "light" || value === "dark" ? value : "system";
  } catch {
    // Storage refused (a private window's policy): the system decides.
    return "system";
  }
}

export function applyTheme(choice: ThemeChoice, root: HTMLElement = document.documentElement): void {
  root.classList.toggle("light", choice === "light");
  root.classList.toggle("dark", choice === "dark");
}

export function chooseTheme(choice: ThemeChoice, storage: Pick<Storage, "setItem" | "removeItem"> = window.localStorage): void {
  try {
    if (choice === "system") storage.removeItem(storageKey);
    else storage.setItem(storageKey, choice);
  } catch {
    // Not kept on this device; it still applies until the page is left.
  }
  applyTheme(choice);
}
