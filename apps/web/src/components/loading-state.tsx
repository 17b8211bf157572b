import type { ReactNode } from "react";

import { cn } from "@/lib/utils";

/** One shimmering placeholder block; every loading state draws with these. */
function Bone({ className }: { className?: string }) {
  return <div className={cn("rounded-md bg-foreground/10 motion-safe:animate-pulse", className)} />;
}

/** The shape of what is on its way: home's cards, the detail page's memory, or a list's rows. */
export type LoadingShape = "cards" | "memory" | "rows";

/**
 * The app's one loading look (ADR 0032): the coming screen's shape in soft blocks on cards, with
 * its visible text ("Loading memory...") under them. `role="status"` announces the text; the
 * blocks are decoration.
 */
export function LoadingState({ shape, children, className }: { shape: LoadingShape; children: ReactNode; className?: string }) {
  return (
    <div role="status" data-slot="loading-state" className={cn("flex flex-col gap-4", className)}>
      <div aria-hidden="true">{shapes[shape]}</div>
      <p className="text-center text-sm text-muted-foreground">{children}</p>
    </div>
  );
}

const cardBox = "overflow-hidden rounded-xl border bg-card shadow-sm";

const shapes: Record<LoadingShape, ReactNode> = {
  // As MemoryGrid lays cards out: one column, two from medium screens, three from large.
  cards: (
    <div className="grid grid-cols-1 items-start gap-6 md:grid-cols-2 lg:grid-cols-3">
      {[0, 1, 2].map((index) => (
        <div key={index} className={cn(cardBox, index > 0 && "hidden", index === 1 && "md:block", index === 2 && "lg:block")}>
          <Bone className="aspect-[4/3] rounded-none" />
          <div className="flex flex-col gap-2 p-6">
            <Bone className="h-5 w-2/3" />
            <Bone className="h-4 w-1/3" />
          </div>
        </div>
      ))}
    </div>
  ),
  memory: (
    <div className={cn(cardBox, "flex flex-col gap-4 p-6")}>
      <Bone className="h-8 w-1/2" />
      <Bone className="h-4 w-1/4" />
      <Bone className="mt-2 aspect-[16/9] w-full" />
    </div>
  ),
  rows: (
    <div className={cn(cardBox, "flex flex-col divide-y")}>
      {[0, 1, 2].map((index) => (
        <div key={index} className="flex items-center gap-3 p-4">
          <Bone className="size-8 rounded-full" />
          <Bone className="h-4 w-1/3" />
        </div>
      ))}
    </div>
  ),
};
