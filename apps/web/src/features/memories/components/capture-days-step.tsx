import { useEffect, useId, useRef } from "react";
import type { Photo } from "@memory-box/contract";
import { CircleAlertIcon } from "lucide-react";

import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ScrollArea } from "@/components/ui/scroll-area";
import { MediaMark } from "@/features/memories/components/media-mark";
import { PhotoImage } from "@/features/memories/components/photo-image";
import { dayTitle } from "@/features/memories/hooks/use-capture-days";
import type { CaptureDays } from "@/features/memories/utils/capture-days";
import { mediaLabel } from "@/features/memories/utils/media";
import { useIntl } from "@/lib/intl";

export interface CaptureDaysStepProps {
  days: CaptureDays<Photo>;
  sending: boolean;
  /** Why the memories were not made (nothing was written), to show above the buttons. */
  problem?: string;
  onAccept: () => void;
  onDecline: () => void;
}

/**
 * The Add dialog's step before the form (issue #34, ADR 0063): "12 photos from 3 days → 3
 * memories?", each day with its date, its count and its thumbnails. Focus moves to its heading
 * when it appears, so a screen reader reads the question first.
 */
export function CaptureDaysStep({ days, sending, problem, onAccept, onDecline }: CaptureDaysStepProps) {
  const intl = useIntl();
  const id = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const photoCount = days.days.reduce((sum, day) => sum + day.photos.length, 0) + days.undated.length;
  const dayCount = days.days.length;
  // Each day's photos (the undated ones with the first day), numbered across the step in the order shown.
  const shown = days.days.map((day, index) => ({
    date: day.date,
    photos: index === 0 ? [...day.photos, ...days.undated] : day.photos,
    first: days.days
      .slice(0, index)
      .reduce((sum, earlier) => sum + earlier.photos.length, index === 0 ? 1 : 1 + days.undated.length),
  }));

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  return (
    <section aria-labelledby={`${id}-heading`} aria-busy={sending} className="flex min-h-0 flex-1 flex-col">
      <ScrollArea scrollHideDelay={600} className="min-h-0 flex-1">
        <div className="flex flex-col gap-4 px-6 py-4">
          <div className="flex flex-col gap-1">
            <h3 id={`${id}-heading`} ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
              {intl.formatMessage({ id: "captureDays.heading" }, { photos: photoCount, days: dayCount })}
            </h3>
            <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "captureDays.description" })}</p>
          </div>
          <ul className="flex flex-col gap-4">
            {shown.map(({ date, photos, first }, index) => {
              const title = dayTitle(date);
              return (
                <li key={date} className="flex flex-col gap-2" aria-labelledby={`${id}-${date}`}>
                  <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                    <h4 id={`${id}-${date}`} className="font-medium">
                      {title}
                    </h4>
                    <p className="text-sm text-muted-foreground tabular-nums">
                      {intl.formatMessage({ id: "captureDays.dayCount" }, { count: photos.length })}
                    </p>
                  </div>
                  {index === 0 && days.undated.length > 0 && (
                    <p className="text-xs text-muted-foreground">
                      {intl.formatMessage({ id: "captureDays.undated" }, { count: days.undated.length })}
                    </p>
                  )}
                  <ul
                    aria-label={intl.formatMessage({ id: "captureDays.dayPhotos" }, { date: title })}
                    className="grid grid-cols-5 gap-1.5 sm:grid-cols-8"
                  >
                    {photos.map((photo, position) => (
                      <li key={photo.id} className="relative">
                        <PhotoImage
                          photo={photo}
                          size="thumbnail"
                          alt={mediaLabel(photo, first + position, intl)}
                          className="aspect-square w-full rounded-md object-cover"
                        />
                        <MediaMark photo={photo} small />
                      </li>
                    ))}
                  </ul>
                </li>
              );
            })}
          </ul>
        </div>
      </ScrollArea>
      {problem !== undefined && (
        <div className="max-h-[40%] overflow-y-auto border-t px-6 py-3">
          <Alert variant="destructive">
            <CircleAlertIcon aria-hidden="true" />
            <AlertTitle>{intl.formatMessage({ id: "captureDays.problem.title" })}</AlertTitle>
            <AlertDescription>
              <p>{problem}</p>
            </AlertDescription>
          </Alert>
        </div>
      )}
      <div className="flex flex-col-reverse gap-2 border-t px-6 py-4 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onDecline} disabled={sending}>
          {intl.formatMessage({ id: "captureDays.decline" })}
        </Button>
        <Button type="button" onClick={onAccept} disabled={sending}>
          {sending
            ? intl.formatMessage({ id: "captureDays.sending" })
            : intl.formatMessage({ id: "captureDays.accept" }, { count: dayCount })}
        </Button>
      </div>
    </section>
  );
}
