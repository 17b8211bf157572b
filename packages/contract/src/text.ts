import { z } from "zod";

/**
 * Text that must say something: trimmed, refused when empty or longer than `max` characters. Far
 * longer input is refused before it is trimmed, so a huge body costs no work.
 */
export function requiredText(max: number) {
  return z
    .string()
    .max(max * 2)
    .transform((value) => value.trim())
    .refine((value) => value.length > 0, { message: "is required" })
    .refine((value) => value.length <= max, { message: `must be at most ${max} characters` });
}
