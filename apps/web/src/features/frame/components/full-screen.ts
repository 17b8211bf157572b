/** Whether the browser can show the page full screen now (it has the API and is not full screen already). */
export function canGoFullScreen(): boolean {
  return typeof document.documentElement.requestFullscreen === "function" && !document.fullscreenElement;
}

/** Asks the browser for full screen: browsers allow it only in answer to a tap, a click or a key. */
export function goFullScreen(): void {
  if (!canGoFullScreen()) return;
  document.documentElement.requestFullscreen().catch(() => undefined);
}
