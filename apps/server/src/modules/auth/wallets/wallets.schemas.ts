import { z } from "zod";
import { text } from "../core/core.schemas";

/** `POST /token?grant_type=web3`, as auth-js `signInWithWeb3` sends it; `link_identity` connects the wallet instead. */
export const Web3GrantBody = z.looseObject({
  chain: text,
  // Their types are checked after the chain is known to be on, as Supabase Auth does: a client of a
  // server with wallets off is told so, whatever it sent.
  message: z.unknown(),
  signature: z.unknown(),
  link_identity: z.boolean().nullish(),
});
