import { placeholder } from "@/app/first-screen/dom/placeholder";

/**
 * `react-router`, `radix-ui` and `lucide-react` in the first script's build (ADR 0039): the parts
 * home's first screen uses, each drawn by its substitute in `paint-home.tsx`.
 */
export const Link = placeholder("Link");

export const Slot = { Root: placeholder("Slot") };
export const Label = { Root: placeholder("Label") };
export const Popover = {
  Root: placeholder("Popover"),
  Trigger: placeholder("PopoverTrigger"),
  Anchor: placeholder("PopoverAnchor"),
  Portal: placeholder("PopoverPortal"),
  Content: placeholder("PopoverContent"),
};

export const Calendar = placeholder("Calendar");
export const CircleAlert = placeholder("CircleAlert");
export const MapPin = placeholder("MapPin");
export const MessageCircle = placeholder("MessageCircle");
export const Pencil = placeholder("Pencil");
export const Play = placeholder("Play");
export const Plus = placeholder("Plus");
export const Search = placeholder("Search");
export const Settings = placeholder("Settings");
export const Trash = placeholder("Trash");
export const User = placeholder("User");
