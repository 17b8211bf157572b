import type { Photo } from "@memory-box/contract";
import { CircleAlert, Play } from "lucide-react";

import { formatDuration, videoFailureReason } from "@/features/memories/utils/media";
import { useMediaProgress, type MediaProgress } from "@/features/memories/utils/media-progress";
import { cn } from "@/lib/utils";
import { activeIntl } from "@/lib/intl";

export interface MediaMarkProps {
  photo: Photo;
  /** Smaller marks, for small thumbnails (On this day, the form). */
  small?: boolean;
}

/**
 * What lies over a media's poster in a card, On this day and the form (its parent is `relative`):
 * a video's play mark and duration, a Live Photo's "LIVE", and while a video is prepared "Preparing
 * video… 40 %" (as the live stream tells it), or why it could not be. The marks sit on the theme's
 * background, nearly opaque and ringed, so they read on any poster, light or dark, and keep their
 * shape on one of their own colour. A still photo has none.
 */
export function MediaMark(props: MediaMarkProps) {
  return <MediaMarkView {...props} progress={useMediaProgress(props.photo.id)} />;
}

/** `MediaMark` without state, so the first screen's script draws it too (ADR 0039). */
export function MediaMarkView({ photo, small = false, progress }: MediaMarkProps & { progress?: MediaProgress }) {
  if (photo.kind === "photo") return null;
  const status = progress?.status ?? photo.status;
  const pill = cn(
    "absolute rounded-full bg-background/85 font-medium text-foreground shadow-sm ring-1 ring-foreground/10 tabular-nums",
    small ? "px-1.5 text-[0.6875rem] leading-4" : "px-2 py-0.5 text-xs",
  );

  if (status === "processing") {
    return (
      <span data-media-mark="processing" className={cn(pill, "inset-x-1.5 bottom-1.5 truncate text-center")}>
        {progress === undefined || progress.status !== "processing"
          ? activeIntl().formatMessage({ id: "memory.video.preparingStarted" })
          : activeIntl().formatMessage({ id: "memory.video.preparing" }, { progress: progress.progress })}
      </span>
    );
  }
  if (status === "failed") {
    return (
      <span
        data-media-mark="failed"
        className={cn(
          "absolute inset-x-1.5 bottom-1.5 flex items-start gap-1 rounded-md bg-background/90 text-problem shadow-sm ring-1 ring-foreground/10",
          small ? "p-1 text-[0.6875rem] leading-4" : "p-1.5 text-xs",
        )}
      >
        <CircleAlert aria-hidden="true" className="mt-px size-3.5 shrink-0" />
        <span className="line-clamp-3">{videoFailureReason(progress?.error_code ?? photo.error_code)}</span>
      </span>
    );
  }
  if (photo.kind === "live") {
    return (
      <span aria-hidden="true" data-media-mark="live" className={cn(pill, "start-1.5 top-1.5 tracking-wider")}>
        {activeIntl().formatMessage({ id: "memory.live.mark" })}
      </span>
    );
  }
  return (
    <>
      <span aria-hidden="true" className="absolute inset-0 flex items-center justify-center">
        <span
          data-media-mark="play"
          className={cn(
            "flex items-center justify-center rounded-full bg-background/85 text-foreground shadow-md ring-1 ring-foreground/10",
            small ? "size-8" : "size-11",
          )}
        >
          {/* A play mark points right in every language; nudged right to look centred. */}
          <Play aria-hidden="true" className={cn("fill-current ltr:ms-0.5 rtl:me-0.5", small ? "size-3.5" : "size-5")} />
        </span>
      </span>
      {photo.duration_seconds !== null && (
        <span aria-hidden="true" data-media-mark="duration" className={cn(pill, "end-1.5 bottom-1.5")}>
          {formatDuration(photo.duration_seconds)}
        </span>
      )}
    </>
  );
}
