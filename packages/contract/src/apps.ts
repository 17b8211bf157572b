import { z } from "zod";

/**
 * Apps that may sign members in with Memory Box (issue #36, ADR 0071, ADR 0075): owners register
 * them in Settings → Apps (`/api/v1/apps`), as the admin API's `/admin/oauth/clients` does for
 * operators. A member's own grants to apps are the auth API's (`/auth/v1/user/oauth/grants`).
 */

export const AppLimits = {
  nameMaxLength: 100,
  maxRedirectUris: 10,
  redirectUriMaxLength: 2048,
} as const;

/**
 * A registered app. `client_secret` is in the answer to a registration or a new secret only, for a
 * confidential app (one with a server that keeps it); it is never shown again.
 */
export const RegisteredApp = z.object({
  client_id: z.uuid(),
  name: z.string(),
  client_type: z.enum(["public", "confidential"]),
  redirect_uris: z.array(z.string()),
  created_at: z.string(),
  client_secret: z.string().optional(),
});
export type RegisteredApp = z.infer<typeof RegisteredApp>;

/** `GET /api/v1/apps`: every registered app, newest first. */
export const RegisteredAppList = z.object({ apps: z.array(RegisteredApp) });
export type RegisteredAppList = z.infer<typeof RegisteredAppList>;

/**
 * `POST /api/v1/apps`: its name, where it may send members back (exact URLs, https but for
 * loopback addresses; the server's rules are the admin API's), and whether it keeps a secret.
 */
export const AppRegistration = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, { message: "must not be empty" })
    .max(AppLimits.nameMaxLength, { message: `must be at most ${AppLimits.nameMaxLength} characters` }),
  redirect_uris: z
    .array(z.string().trim().min(1).max(AppLimits.redirectUriMaxLength))
    .min(1, { message: "must give at least one address" })
    .max(AppLimits.maxRedirectUris, { message: `at most ${AppLimits.maxRedirectUris} addresses` }),
  client_type: z.enum(["public", "confidential"]),
});
export type AppRegistration = z.input<typeof AppRegistration>;
