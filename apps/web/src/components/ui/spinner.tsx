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
 * A spinner centred in its box. `role="status"` plus visually hidden text makes screen readers
 * announce the label; the icon itself is decorative.
 */
function Spinner({
  className,
  size,
  label = "Loading",
  ...props
}: React.ComponentProps<"div"> & VariantProps<typeof spinnerVariants> & { label?: string }) {
  return (
    <div role="status" data-slot="spinner" className={cn("flex items-center justify-center", className)} {...props}>
      <Loader2 aria-hidden="true" className={spinnerVariants({ size })} />
      <span className="sr-only">{label}</span>
    </div>
  );
}

export { Spinner };
