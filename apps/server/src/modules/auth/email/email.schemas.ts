import { z } from "zod";
import { metadata, pkceFields, text } from "../core/core.schemas";

export const OtpBody = z.looseObject({
  email: text,
  phone: text,
  data: metadata,
  create_user: z.boolean().nullish(),
  ...pkceFields,
});
export const VerifyBody = z.looseObject({ type: text, email: text, phone: text, token: text, token_hash: text });
export const VerifyQuery = z.looseObject({ token: text, type: text, redirect_to: text });
export const RecoverBody = z.looseObject({ email: text, ...pkceFields });
export const ResendBody = z.looseObject({ type: text, email: text, phone: text, ...pkceFields });
