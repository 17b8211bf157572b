import { CircleAlertIcon, CircleCheckIcon, ImageOffIcon, XIcon } from "lucide-react";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { MediaMark } from "@/features/memories/components/media-mark";
import { PhotoImage } from "@/features/memories/components/photo-image";
import type { NewPhoto } from "@/features/memories/hooks/use-photo-picker";
import { isVideoFile } from "@/features/memories/utils/media";
import { cn } from "@/lib/utils";
import { activeIntl, useIntl } from "@/lib/intl";

export interface NewPhotoTileProps {
  photo: NewPhoto;
  /** 1-based, for the labels ("New photo 2"). */
  number: number;
  /** While the memory itself saves nothing can be taken out; an upload can always be cancelled. */
  disabled: boolean;
  /** Offline, a waiting photo waits for the connection, and says so. */
  online: boolean;
  onRemove: () => void;
}

/**
 * A chosen photo or video in the form with how its upload stands: waiting (for the connection, offline), a progress bar, done, or
 * refused with the reason below it. Its button cancels the upload while it runs, and removes the
 * photo otherwise. A video shows its first frame until the server's poster is there (then how its
 * preparation goes), a Live Photo its still marked "LIVE".
 */
export function NewPhotoTile({ photo, number, disabled, online, onRemove }: NewPhotoTileProps) {
  const intl = useIntl();
  // A file this browser cannot draw (often the one the server refused) gets a tile, not the broken-image icon (issue #34).
  const [undrawable, setUndrawable] = useState(false);
  const { upload } = photo;
  const uploading = upload.status === "queued" || upload.status === "uploading";
  const failed = upload.status === "failed";
  const statusId = `${photo.key}-status`;
  const video = isVideoFile(photo.file);
  const alt = video
    ? intl.formatMessage({ id: "newPhoto.videoAlt" }, { number })
    : photo.motion
      ? intl.formatMessage({ id: "memory.live.alt" }, { number })
      : intl.formatMessage({ id: "newPhoto.alt" }, { number });
  const previewClass = cn(
    "aspect-square w-full rounded-md bg-muted object-cover",
    uploading && "opacity-60",
    failed && "opacity-40 ring-2 ring-destructive",
  );

  return (
    <li className="flex flex-col gap-1">
      <div className="relative">
        {upload.status === "uploaded" && upload.photo.kind !== "photo" ? (
          <>
            <PhotoImage
              photo={upload.photo}
              size="thumbnail"
              alt={alt}
              aria-describedby={statusId}
              className="aspect-square w-full rounded-md object-cover"
            />
            <MediaMark photo={upload.photo} small />
          </>
        ) : video ? (
          <video
            src={photo.previewUrl}
            muted
            playsInline
            preload="metadata"
            aria-label={alt}
            aria-describedby={statusId}
            className={previewClass}
          />
        ) : undrawable ? (
          <div
            role="img"
            aria-label={alt}
            aria-describedby={statusId}
            className={cn(previewClass, "flex items-center justify-center text-muted-foreground")}
          >
            <ImageOffIcon aria-hidden="true" className="size-8" />
          </div>
        ) : (
          <img
            src={photo.previewUrl}
            alt={alt}
            aria-describedby={statusId}
            className={previewClass}
            onError={() => setUndrawable(true)}
          />
        )}
        {photo.motion && upload.status !== "uploaded" && (
          <span
            aria-hidden="true"
            className="absolute start-1.5 top-1.5 rounded-full bg-background/85 px-1.5 text-[0.6875rem] leading-4 font-medium tracking-wider text-foreground shadow-sm ring-1 ring-foreground/10"
          >
            {intl.formatMessage({ id: "memory.live.mark" })}
          </span>
        )}
        {uploading && (
          <div
            role="progressbar"
            aria-label={intl.formatMessage({ id: "newPhoto.uploading" }, { number })}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={upload.status === "uploading" ? Math.round(upload.progress * 100) : 0}
            className="absolute inset-x-2 bottom-2 h-1.5 overflow-hidden rounded-full bg-background/80"
          >
            <div
              className="h-full rounded-full bg-primary transition-[width] duration-200"
              style={{ width: `${upload.status === "uploading" ? Math.round(upload.progress * 100) : 0}%` }}
            />
          </div>
        )}
        {upload.status === "uploaded" && (
          <CircleCheckIcon
            aria-hidden="true"
            className="absolute start-1.5 bottom-1.5 size-5 rounded-full bg-background text-primary"
          />
        )}
        {failed && (
          <CircleAlertIcon
            aria-hidden="true"
            className="absolute start-1.5 bottom-1.5 size-5 rounded-full bg-background text-destructive"
          />
        )}
        <Button
          type="button"
          variant="destructive"
          size="icon"
          data-remove="new"
          aria-label={
            uploading
              ? intl.formatMessage({ id: "newPhoto.cancel" }, { number })
              : intl.formatMessage({ id: "newPhoto.remove" }, { number })
          }
          disabled={disabled && !uploading}
          onClick={onRemove}
          className="absolute end-1 top-1 size-7 rounded-full focus-visible:ring-offset-2"
        >
          <XIcon aria-hidden="true" />
        </Button>
      </div>
      <p
        id={statusId}
        className={cn("truncate text-xs", failed ? "text-destructive" : "text-muted-foreground")}
        title={photo.file.name}
      >
        {statusText(photo, online)}
      </p>
      {failed && <p className="text-xs text-destructive">{upload.reason}</p>}
    </li>
  );
}

function statusText({ file, upload }: NewPhoto, online: boolean): string {
  switch (upload.status) {
    case "queued":
      return online
        ? activeIntl().formatMessage({ id: "newPhoto.waiting" }, { file: file.name })
        : activeIntl().formatMessage({ id: "newPhoto.waitingConnection" }, { file: file.name });
    case "uploading":
      return activeIntl().formatMessage(
        { id: "newPhoto.progress" },
        { file: file.name, percent: Math.round(upload.progress * 100) },
      );
    case "uploaded":
      return activeIntl().formatMessage({ id: "newPhoto.uploaded" }, { file: file.name });
    case "failed":
      return activeIntl().formatMessage({ id: "newPhoto.notUploaded" }, { file: file.name });
  }
}
