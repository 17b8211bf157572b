import type { ReactNode } from "react";
import type { LucideIcon } from "lucide-react";

import { IconCircle } from "@/components/icon-circle";
import { Card, CardContent } from "@/components/ui/card";
import { cn } from "@/lib/utils";

/**
 * The app's one empty look (ADR 0032): an icon in a soft accent circle, the heading, the spec's
 * text and the way on, centred on a card. A page that is nothing else (404, the error page) makes
 * its heading the page's h1, a size larger.
 */
export function EmptyState({
  icon,
  title,
  description,
  children,
  heading: Heading = "h2",
  className,
}: {
  icon: LucideIcon;
  title: string;
  description?: string;
  children?: ReactNode;
  heading?: "h1" | "h2";
  className?: string;
}) {
  return (
    <Card data-slot="empty-state" className={cn("py-12 text-center", className)}>
      <CardContent className="flex flex-col items-center gap-4">
        <IconCircle icon={icon} />
        <Heading className={cn("font-semibold text-balance", Heading === "h1" ? "text-3xl" : "text-xl")}>{title}</Heading>
        {description && <p className="max-w-prose text-balance text-muted-foreground">{description}</p>}
        {children}
      </CardContent>
    </Card>
  );
}
