import type { LucideIcon } from "lucide-react";

import { cn } from "@/lib/utils";

/**
 * An icon in a soft accent circle: what heads the app's empty states and its one-card pages
 * (sign-in, a new password, the second step, 404, the error page), so they read as one family.
 */
export function IconCircle({ icon: Icon, className }: { icon: LucideIcon; className?: string }) {
  return (
    <span className={cn("flex size-14 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary", className)}>
      <Icon aria-hidden="true" className="size-7" strokeWidth={1.5} />
    </span>
  );
}
