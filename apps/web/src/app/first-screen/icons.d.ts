declare module "virtual:first-screen-icons" {
  /** Trusted SVG markup made at build time from lucide-react (vite.config.ts), by lucide's component name. */
  export const iconMarkup: Record<
    | "Calendar"
    | "CircleAlert"
    | "MapPin"
    | "MessageCircle"
    | "Pencil"
    | "Play"
    | "Plus"
    | "Search"
    | "Settings"
    | "Trash"
    | "User",
    string
  >;
}
