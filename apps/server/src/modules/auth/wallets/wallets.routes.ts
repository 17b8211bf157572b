import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requestContext, type TokenGrants } from "../core/auth-wire";
import type { SessionService } from "../core/session.service";
import * as schemas from "./wallets.schemas";
import type { WalletsService } from "./wallets.service";

export interface WalletsRoutesOptions {
  wallets: WalletsService;
  sessions: SessionService;
  grants: TokenGrants;
}

/** Wallet sign-in and connecting wallets (ADR 0035): `POST /token?grant_type=web3`. */
export const walletsRoutes: FastifyPluginAsyncZod<WalletsRoutesOptions> = async (_app, { wallets, sessions, grants }) => {
  grants.set("web3", async (request) => {
    const body = schemas.Web3GrantBody.parse(request.body ?? {});
    const grant = { chain: body.chain, message: body.message, signature: body.signature };
    // Connecting a wallet to the signed-in member, as Supabase Auth links with `link_identity` (ADR 0035).
    if (body.link_identity)
      return wallets.link(await sessions.authenticate(request.headers.authorization), grant, requestContext(request));
    return wallets.signIn(grant, requestContext(request));
  });
};
