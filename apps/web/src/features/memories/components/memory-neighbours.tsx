import type { MemoryNeighbours } from "@memory-box/contract";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { Link } from "react-router";

import { Button } from "@/components/ui/button";
import { paths } from "@/config/paths";
import { useIntl } from "@/lib/intl";

/** "Previous" (the newer memory) and "Next" (the older), in the list's order; a side without one is left empty. */
export function MemoryNeighboursNav({ neighbours }: { neighbours: MemoryNeighbours }) {
  const intl = useIntl();
  const { previous, next } = neighbours;
  if (!previous && !next) return null;
  return (
    <nav aria-label={intl.formatMessage({ id: "memory.neighbours.label" })} className="flex items-start justify-between gap-4">
      {previous ? (
        <Button asChild variant="ghost" className="h-auto max-w-[48%] justify-start py-2">
          <Link to={paths.memory(previous.id)} rel="prev">
            <ChevronLeft aria-hidden="true" className="rtl:-scale-x-100" />
            <span className="flex min-w-0 flex-col items-start">
              <span className="text-xs font-medium">{intl.formatMessage({ id: "memory.neighbours.previous" })}</span>
              <span dir="auto" className="max-w-full truncate">
                {previous.title}
              </span>
            </span>
          </Link>
        </Button>
      ) : (
        <span />
      )}
      {next && (
        <Button asChild variant="ghost" className="h-auto max-w-[48%] justify-end py-2">
          <Link to={paths.memory(next.id)} rel="next">
            <span className="flex min-w-0 flex-col items-end">
              <span className="text-xs font-medium">{intl.formatMessage({ id: "memory.neighbours.next" })}</span>
              <span dir="auto" className="max-w-full truncate">
                {next.title}
              </span>
            </span>
            <ChevronRight aria-hidden="true" className="rtl:-scale-x-100" />
          </Link>
        </Button>
      )}
    </nav>
  );
}
