import { z } from "zod";
import { pkceFields, text } from "../core/core.schemas";

export const SsoBody = z.looseObject({
  domain: text,
  provider_id: text,
  redirect_to: text,
  skip_http_redirect: z
    .boolean()
    .nullish()
    .transform((value) => value ?? undefined),
  ...pkceFields,
});
/** What an identity provider posts to the assertion consumer (HTML form fields). */
export const AssertionForm = z.looseObject({ SAMLResponse: text, RelayState: text });
