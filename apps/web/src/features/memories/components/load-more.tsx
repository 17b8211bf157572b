import { useEffect, useRef, type Ref } from "react";

import { Button } from "@/components/ui/button";
import { useIntl } from "@/lib/intl";

export interface LoadMoreProps {
  /** There is a next page to load. */
  hasMore: boolean;
  /** The next page is on its way. */
  loading: boolean;
  /** Hold the automatic loading (another fetch is running, or the last attempt failed); the button still works. */
  pauseAuto?: boolean;
  onLoadMore: () => void;
}

/**
 * The end of an infinite list: loads the next page on its own when this comes within a screen of
 * the viewport (IntersectionObserver), and shows a "Load more" button for keyboards, for
 * browsers without the observer, and to retry after a failure.
 */
export function LoadMore({ hasMore, loading, pauseAuto = false, onLoadMore }: LoadMoreProps) {
  const sentinel = useRef<HTMLDivElement>(null);
  const auto = hasMore && !loading && !pauseAuto;

  useEffect(() => {
    const node = sentinel.current;
    if (!auto || node === null || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onLoadMore();
      },
      { rootMargin: "0px 0px 100% 0px" },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [auto, onLoadMore]);

  if (!hasMore) return null;
  return <LoadMoreView loading={loading} onLoadMore={onLoadMore} sentinel={sentinel} />;
}

/** `LoadMore`'s button: without state, so the first screen's script draws it too (ADR 0039). */
export function LoadMoreView({
  loading,
  onLoadMore,
  sentinel,
}: Pick<LoadMoreProps, "loading" | "onLoadMore"> & { sentinel?: Ref<HTMLDivElement> }) {
  const intl = useIntl();
  return (
    <div ref={sentinel} className="flex justify-center py-2">
      <Button variant="outline" disabled={loading} onClick={onLoadMore}>
        {loading ? intl.formatMessage({ id: "home.loadMore.loading" }) : intl.formatMessage({ id: "home.loadMore.button" })}
      </Button>
    </div>
  );
}
