import { placeholder } from "@/app/first-screen/dom/placeholder";

/**
 * Home's components with state, in the first script's build (ADR 0039): `photo-image.tsx` and
 * `memory-card.tsx` stand for these there, and their views are drawn in their place.
 */
export const PhotoImage = placeholder("PhotoImage");
export const MemoryCard = placeholder("MemoryCard");
