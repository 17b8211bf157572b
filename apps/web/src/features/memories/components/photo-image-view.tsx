import type { ComponentProps } from "react";
import type { Photo } from "@memory-box/contract";

import { thumbHashAverageColour, thumbHashDataUrl } from "@/features/memories/utils/thumbhash";
import { cn } from "@/lib/utils";

export interface PhotoImageProps extends Omit<ComponentProps<"img">, "src" | "width" | "height"> {
  photo: Photo;
  /** Which rendition: the ~400 px thumbnail (forms, cards) or the ~1600 px preview (detail page). */
  size: "thumbnail" | "preview";
  alt: string;
}

/**
 * The `<img>` itself, as it is before (`loaded` false) and after it has loaded; without state, so
 * the first screen's script draws it too (ADR 0039).
 */
export function PhotoImageView({ photo, size, alt, loaded, className, style, ...props }: PhotoImageProps & { loaded: boolean }) {
  const placeholder = loaded || size === "thumbnail" ? null : thumbHashDataUrl(photo.placeholder);
  const tint = loaded || size === "preview" ? null : thumbHashAverageColour(photo.placeholder);
  return (
    <img
      src={size === "preview" ? photo.preview_url : photo.thumbnail_url}
      width={photo.width}
      height={photo.height}
      alt={alt}
      loading="lazy"
      decoding="async"
      data-loaded={loaded}
      className={cn(!loaded && "bg-muted", "bg-cover bg-center", className)}
      style={
        placeholder ? { ...style, backgroundImage: `url("${placeholder}")` } : tint ? { ...style, backgroundColor: tint } : style
      }
      {...props}
    />
  );
}
