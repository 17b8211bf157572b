import { z } from "zod";

/** `POST /passkeys/registration/verify` and `/passkeys/authentication/verify`. */
export const PasskeyCeremonyBody = z.object({
  challenge_id: z.string().max(100),
  credential: z.unknown(),
});

export const PasskeyParams = z.object({ id: z.string().max(100) });
export const UpdatePasskeyBody = z.object({ friendly_name: z.string().max(1000) });
