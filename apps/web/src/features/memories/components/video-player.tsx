import { useState, type ReactNode } from "react";
import type { Photo } from "@memory-box/contract";

import { mediaLabel } from "@/features/memories/utils/media";
import { renewPhotoAccess } from "@/lib/photo-access";
import { cn } from "@/lib/utils";
import { useIntl } from "@/lib/intl";

export interface VideoPlayerProps {
  /** A video whose playable copy is ready (`video_url` set). */
  photo: Photo & { video_url: string };
  /** 1-based, for its label ("Video 2, 0:42"). */
  number: number;
  className?: string;
}

/**
 * A video of a memory, played in the browser's own player: its poster first, only its length and
 * first frames fetched until it is played (the server answers range requests, so seeking is at
 * once). It loads with the photo access cookie like a photo; when that has run out (the page sat
 * open) the cookie is renewed and the video loaded once more.
 */
export function VideoPlayer({ photo, number, className }: VideoPlayerProps) {
  const intl = useIntl();
  const [attempt, setAttempt] = useState<"first" | "retry">("first");
  return (
    <video
      key={attempt}
      src={photo.video_url}
      poster={photo.preview_url}
      width={photo.width}
      height={photo.height}
      controls
      playsInline
      preload="metadata"
      aria-label={mediaLabel(photo, number, intl)}
      className={cn("bg-muted", className)}
      onError={() => {
        if (attempt !== "first") return;
        void renewPhotoAccess()
          .catch(() => undefined)
          .then(() => setAttempt("retry"));
      }}
    >
      {intl.formatMessage({ id: "viewer.video.unsupported" })}
    </video>
  );
}

export interface LivePhotoProps {
  photo: Photo;
  number: number;
  /** The still, as the page shows a photo. */
  children: ReactNode;
  className?: string;
  /** Where the motion lies over the still: the still's own box by default. */
  motionClassName?: string;
}

/**
 * A Live Photo: its still, and its motion played over it (muted, inline, once) while the pointer
 * rests on it, a finger presses it, or its "LIVE" mark is pressed (a button: Enter or Space plays
 * it, pressed again stops it). Without a playable clip yet, the mark only says what it is.
 */
export function LivePhoto({ photo, number, children, className, motionClassName }: LivePhotoProps) {
  const intl = useIntl();
  // Three reasons to play, kept apart so that one ending never undoes another: a mouse resting
  // on it, a finger holding it, its mark pressed (a click on the mark under a resting mouse plays on).
  const [hovered, setHovered] = useState(false);
  const [held, setHeld] = useState(false);
  const [pressed, setPressed] = useState(false);
  const playing = hovered || held || pressed;
  const motion = photo.video_url;
  const stop = () => {
    setHovered(false);
    setHeld(false);
    setPressed(false);
  };

  return (
    <div
      className={cn("relative", className)}
      onPointerEnter={(event) => {
        if (event.pointerType === "mouse") setHovered(true);
      }}
      onPointerLeave={(event) => {
        if (event.pointerType === "mouse") setHovered(false);
      }}
      onPointerDown={(event) => {
        if (event.pointerType !== "mouse") setHeld(true);
      }}
      onPointerUp={(event) => {
        if (event.pointerType !== "mouse") setHeld(false);
      }}
      onPointerCancel={() => setHeld(false)}
    >
      {children}
      {motion && playing && (
        <video
          src={motion}
          poster={photo.preview_url}
          muted
          autoPlay
          playsInline
          preload="auto"
          aria-hidden="true"
          data-live-motion="true"
          className={cn("pointer-events-none absolute inset-0 size-full object-contain", motionClassName)}
          onEnded={stop}
        />
      )}
      <button
        type="button"
        aria-label={intl.formatMessage({ id: "viewer.live.play" }, { number })}
        aria-pressed={motion ? pressed : undefined}
        disabled={!motion}
        onPointerDown={(event) => event.stopPropagation()}
        onClick={() => setPressed((current) => !current)}
        className="absolute start-2 top-2 z-10 rounded-full bg-background/85 px-2 py-0.5 text-xs font-medium tracking-wider text-foreground shadow-sm ring-1 ring-foreground/10 outline-none focus-visible:ring-[3px] focus-visible:ring-ring disabled:cursor-default aria-pressed:bg-foreground aria-pressed:text-background"
      >
        {intl.formatMessage({ id: "memory.live.mark" })}
      </button>
    </div>
  );
}
