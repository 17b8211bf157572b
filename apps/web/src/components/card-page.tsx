import type { ReactNode } from "react";
import type { LucideIcon } from "lucide-react";

import { IconCircle } from "@/components/icon-circle";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

/**
 * A screen that is one card in the middle of the page (ADR 0032): sign-in and sign-up, a new
 * password, the second step of signing in. An icon in the accent circle heads it, then the
 * title (the page's h1), a line under it, and the card's content.
 */
export function CardPage({
  icon,
  title,
  description,
  children,
}: {
  icon: LucideIcon;
  title: string;
  description: ReactNode;
  children?: ReactNode;
}) {
  return (
    <main className="flex min-h-svh items-center justify-center bg-muted p-4">
      <Card className="w-full max-w-md">
        <CardHeader className="justify-items-center gap-2 text-center">
          <IconCircle icon={icon} className="mb-2" />
          <CardTitle>
            <h1 className="text-2xl">{title}</h1>
          </CardTitle>
          <CardDescription className="text-balance">{description}</CardDescription>
        </CardHeader>
        {children && <CardContent className="flex flex-col gap-4">{children}</CardContent>}
      </Card>
    </main>
  );
}
