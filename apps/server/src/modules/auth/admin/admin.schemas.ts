import { z } from "zod";
import { RedirectQuery } from "../core/core.schemas";
import { SignUpBody } from "../password/password.schemas";

/**
 * Request shapes of the admin API. Fields follow the rest of the auth API: unknown keys are
 * ignored and null counts as absent (the field schemas are borrowed from the
 * flows' schemas).
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

/** Supabase Auth's `attribute_mapping`: for each claim, the assertion attribute(s) that hold it. */
const attributeMappingEntry = z.object({
  name: z.string().max(256).optional(),
  names: z.array(z.string().max(256)).max(20).optional(),
  default: z.union([z.string().max(256), z.number(), z.boolean()]).optional(),
  array: z.boolean().optional(),
});
export const SsoProviderParams = z.object({ id: z.string().max(100) });
// A metadata document is a few kilobytes; the auth API's JSON limit (1 MB) bounds it further.
export const SsoProviderBody = z.looseObject({
  type: text,
  metadata_url: z
    .string()
    .max(2048)
    .nullish()
    .transform((value) => value ?? undefined),
  metadata_xml: text,
  domains: z
    .array(z.string().max(253))
    .max(100)
    .nullish()
    .transform((value) => value ?? undefined),
  attribute_mapping: z
    .object({ keys: z.record(z.string().max(64), attributeMappingEntry).optional() })
    .nullish()
    .transform((value) => value ?? undefined),
  name_id_format: text,
  resource_id: z
    .string()
    .max(256)
    .nullish()
    .transform((value) => value ?? undefined),
});
