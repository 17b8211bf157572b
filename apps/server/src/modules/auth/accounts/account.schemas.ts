import { z } from "zod";
import { metadata, pkceFields, text } from "../core/core.schemas";

export const UpdateUserBody = z.looseObject({
  email: text,
  phone: text,
  password: text,
  nonce: text,
  data: metadata,
  app_metadata: metadata,
  ...pkceFields,
});
