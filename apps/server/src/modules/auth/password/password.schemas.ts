import { z } from "zod";
import { metadata, pkceFields, text } from "../core/core.schemas";

export const SignUpBody = z.looseObject({ email: text, phone: text, password: text, data: metadata, ...pkceFields });
export const PasswordGrantBody = z.looseObject({ email: text, phone: text, password: text });
