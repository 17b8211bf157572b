declare module "virtual:first-screen-icons" {
  /** Trusted SVG markup made at build time from lucide-react (vite.config.ts). */
  export const iconMarkup: Record<"plus" | "settings" | "search" | "user" | "calendar" | "comments" | "pencil" | "trash", string>;
}
