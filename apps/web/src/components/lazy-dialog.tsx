import { type ComponentType, lazy, Suspense, useState } from "react";

/**
 * A dialog whose code is loaded the first time it opens (or when `preload` is called, as a
 * pointer nears its button): code not on the path of home's first screen. Once opened it stays
 * mounted, so it closes with its animation and reopens at once.
 */
export function lazyDialog<Props extends { open: boolean }>(
  load: () => Promise<ComponentType<Props>>,
): ComponentType<Props> & { preload: () => void } {
  const Dialog = lazy(() => load().then((component) => ({ default: component })));
  function LazyDialog(props: Props) {
    const [wanted, setWanted] = useState(props.open);
    if (props.open && !wanted) setWanted(true);
    if (!wanted) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  }
  return Object.assign(LazyDialog, { preload: () => void load().catch(() => undefined) });
}
