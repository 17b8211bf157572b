import * as React from "react";
import { cva, type VariantProps } from "class-variance-authority";
import { Loader2 } from "lucide-react";

import { cn } from "@/lib/utils";

const spinnerVariants = cva("animate-spin text-muted-foreground", {
  variants: {
    size: {
      sm: "size-4",
      default: "size-6",
      lg: "size-10",
    },
  },
  defaultVariants: {
    size: "default",
  },
});

/**
 * A spinner centred in its box. `role="status"` makes screen readers announce the text; the icon
 * itself is decorative. Children are shown next to the icon (add `flex-col` to put them below);
 * without children, `label` is announced but visually hidden.
 */
function Spinner({
  className,
  size,
  label = "Loading",
  children,
  ...props
}: React.ComponentProps<"div"> & VariantProps<typeof spinnerVariants> & { label?: string }) {
  return (
    <div role="status" data-slot="spinner" className={cn("flex items-center justify-center gap-3", className)} {...props}>
      <Loader2 aria-hidden="true" className={spinnerVariants({ size })} />
      {children == null ? <span className="sr-only">{label}</span> : <span className="text-muted-foreground">{children}</span>}
    </div>
  );
}

export { Spinner };
