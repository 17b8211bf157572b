import type { ReactNode } from "react";
import type { LucideIcon } from "lucide-react";

import { Card, CardContent } from "@/components/ui/card";

/**
 * The app's one empty look (ADR 0032): an icon in a soft accent circle, the heading, the spec's
 * text and the way on, centred on a card.
 */
export function EmptyState({
  icon: Icon,
  title,
  description,
  children,
}: {
  icon: LucideIcon;
  title: string;
  description?: string;
  children?: ReactNode;
}) {
  return (
    <Card data-slot="empty-state" className="py-12 text-center">
      <CardContent className="flex flex-col items-center gap-4">
        <span className="flex size-14 items-center justify-center rounded-full bg-primary/10 text-primary">
          <Icon aria-hidden="true" className="size-7" strokeWidth={1.5} />
        </span>
        <h2 className="text-xl font-semibold">{title}</h2>
        {description && <p className="max-w-prose text-muted-foreground">{description}</p>}
        {children}
      </CardContent>
    </Card>
  );
}
