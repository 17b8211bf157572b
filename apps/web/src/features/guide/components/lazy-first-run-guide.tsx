import { lazy, Suspense } from "react";

import type { FirstRunGuideProps } from "@/features/guide/components/first-run-guide";

const load = () => import("@/features/guide/components/first-run-guide");
const Guide = lazy(() => load().then(({ FirstRunGuideCard }) => ({ default: FirstRunGuideCard })));

/** The first-run guide, its code loaded only when a member has it to see (once, ADR 0066). */
export function LazyFirstRunGuide(props: FirstRunGuideProps) {
  return (
    <Suspense fallback={null}>
      <Guide {...props} />
    </Suspense>
  );
}
