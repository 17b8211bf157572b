import { z } from "zod";
import { RedirectQuery, SignUpBody } from "./auth.schemas";

/**
 * Request shapes of the admin API. Fields follow the rest of the auth API: unknown keys are
 * ignored and null counts as absent (the field schemas are borrowed from auth.schemas).
 */
const text = RedirectQuery.shape.redirect_to;
const metadata = SignUpBody.shape.data;
const flag = z
  .boolean()
  .nullish()
  .transform((value) => value ?? undefined);

export { RedirectQuery };
// SQLite refuses LIKE patterns over 50,000 bytes; no address or name is anywhere near 256 characters.
export const ListUsersQuery = z.looseObject({
  page: text,
  per_page: text,
  filter: z
    .string()
    .max(256)
    .nullish()
    .transform((value) => value ?? undefined),
});
export const UserIdParams = z.object({ id: z.string() });
export const UserFactorParams = z.object({ id: z.string(), factorId: z.string() });
export const UserPasskeyParams = z.object({ id: z.string(), passkeyId: z.string() });
export const AdminUserBody = z.looseObject({
  email: text,
  phone: text,
  password: text,
  password_hash: text,
  email_confirm: flag,
  phone_confirm: flag,
  user_metadata: metadata,
  app_metadata: metadata,
  role: text,
  ban_duration: text,
});
export const DeleteUserBody = z.looseObject({ should_soft_delete: flag }).nullish();
export const GenerateLinkBody = z.looseObject({
  type: text,
  email: text,
  password: text,
  data: metadata,
  new_email: text,
  redirect_to: text,
});
export const InviteBody = z.looseObject({ email: text, data: metadata });
