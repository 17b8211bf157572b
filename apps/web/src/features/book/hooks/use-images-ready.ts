import { type RefObject, useEffect, useState } from "react";

/**
 * Whether every image inside `container` has loaded and decoded (or failed: a photo that cannot
 * load must not hold the book back), looked at again whenever `key` changes. A print started
 * before would leave blank frames where the photos go.
 */
export function useImagesReady(container: RefObject<HTMLElement | null>, key: unknown): boolean {
  const [ready, setReady] = useState<{ key: unknown; ready: boolean }>({ key, ready: false });
  useEffect(() => {
    let cancelled = false;
    const images = [...(container.current?.querySelectorAll("img") ?? [])];
    void Promise.all(images.map((image) => decoded(image))).then(() => {
      if (!cancelled) setReady({ key, ready: true });
    });
    return () => {
      cancelled = true;
    };
  }, [container, key]);
  return ready.key === key && ready.ready;
}

/** Settles once `image` has loaded and decoded, or failed to. */
function decoded(image: HTMLImageElement): Promise<void> {
  // A browser without `decode` (jsdom, in tests) has nothing to wait for.
  if (typeof image.decode !== "function") return Promise.resolve();
  return image.decode().catch(() => undefined);
}
