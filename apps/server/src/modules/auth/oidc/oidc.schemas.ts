import { z } from "zod";
import { pkceFields, text } from "../core/core.schemas";

export const IdTokenGrantBody = z.looseObject({
  provider: text,
  id_token: text,
  access_token: text,
  nonce: text,
  link_identity: z.boolean().nullish(),
});
/** `GET /authorize` and `GET /user/identities/authorize`, as auth-js builds them (scopes are the operator's). */
export const AuthorizeQuery = z.looseObject({ provider: text, redirect_to: text, skip_http_redirect: text, ...pkceFields });
export const CallbackQuery = z.looseObject({ state: text, code: text, error: text, error_description: text });
