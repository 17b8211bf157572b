import { useState } from "react";

import { PhotoImageView, type PhotoImageProps } from "@/features/memories/components/photo-image-view";
import { renewPhotoAccess } from "@/lib/photo-access";
import { cn } from "@/lib/utils";
import { useIntl } from "@/lib/intl";

export type { PhotoImageProps };

/**
 * A memory photo with its intrinsic size set (no layout shift) and its ThumbHash painted behind it
 * until the image has loaded: the blurred picture behind a preview, the average colour behind a
 * thumbnail (a page shows a hundred of them, and they arrive quickly); a neutral tint when the
 * hash cannot be decoded.
 *
 * A photo that fails to load is tried once more after renewing the photo access cookie (it may
 * have run out while the page sat open); if it fails again it says so in words, never as a broken
 * image.
 */
export function PhotoImage({ photo, size, alt, className, style, onLoad, onError, ...props }: PhotoImageProps) {
  const intl = useIntl();
  const [loaded, setLoaded] = useState(false);
  const [attempt, setAttempt] = useState<"first" | "retry" | "failed">("first");

  if (attempt === "failed") {
    return (
      <span
        role="img"
        aria-label={intl.formatMessage({ id: "photo.failedLabel" }, { alt })}
        data-failed="true"
        className={cn("flex items-center justify-center bg-muted p-2 text-center text-xs text-muted-foreground", className)}
        style={style}
      >
        {intl.formatMessage({ id: "photo.unavailable" })}
      </span>
    );
  }
  return (
    <PhotoImageView
      key={attempt}
      photo={photo}
      size={size}
      alt={alt}
      loaded={loaded}
      className={className}
      style={style}
      onLoad={(event) => {
        setLoaded(true);
        onLoad?.(event);
      }}
      onError={(event) => {
        onError?.(event);
        if (attempt === "first") {
          void renewPhotoAccess()
            .catch(() => undefined)
            .then(() => setAttempt("retry"));
        } else setAttempt("failed");
      }}
      {...props}
    />
  );
}
