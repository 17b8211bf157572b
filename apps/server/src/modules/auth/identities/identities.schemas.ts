import { z } from "zod";

export const IdentityParams = z.object({ id: z.string().max(100) });
