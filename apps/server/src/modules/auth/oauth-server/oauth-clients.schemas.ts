import { z } from "zod";

// The wire shapes of `/admin/oauth/clients` (auth-js `GoTrueAdminOAuthApi`). Types and sizes only:
// the rules, with Supabase Auth's messages, are OauthClientsService's.

const text = z.string().max(4096);
const texts = z.array(text).max(100);

export const OauthClientBody = z.object({
  client_name: text.optional(),
  client_uri: text.optional(),
  logo_uri: text.optional(),
  redirect_uris: texts.optional(),
  grant_types: texts.optional(),
  response_types: texts.optional(),
  scope: text.optional(),
  client_type: text.optional(),
  token_endpoint_auth_method: text.optional(),
});

export const OauthClientParams = z.object({
  id: z.guid({ message: "invalid client_id format" }),
});

export const OauthClientListQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
  per_page: z.coerce.number().int().min(1).max(1000).catch(50),
});
