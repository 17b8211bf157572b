import type { OauthClientRow } from "../../../db/schema";
import { AppError } from "../../../errors";
import type { OauthClientsRepository } from "./oauth-clients.repository";
import { secretMatches } from "./oauth-clients.service";

/** The fields of a token request that name and prove the client. */
export interface ClientCredentials {
  client_id?: string;
  client_secret?: string;
  /** `Authorization: Basic` credentials, if sent. */
  basic?: { clientId: string; secret: string };
}

export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Client authentication at the token endpoint (and the device authorization endpoint), by the
 * client's registered method: a public client names itself; a confidential one proves its secret
 * with HTTP Basic or in the body, and only that way.
 */
export async function authenticateClient(
  clients: Pick<OauthClientsRepository, "findById">,
  request: ClientCredentials,
): Promise<OauthClientRow> {
  const clientId = request.basic?.clientId ?? request.client_id;
  if (!clientId) throw oauthError("invalid_client", "Client authentication required", 401);
  if (request.basic && request.client_id !== undefined && request.client_id !== request.basic.clientId) throw invalidClient();
  if (!uuidPattern.test(clientId)) throw invalidClient();
  const client = await clients.findById(clientId);
  if (!client) throw invalidClient();
  const method = client.token_endpoint_auth_method;
  if (method === "none") {
    if (request.basic || request.client_secret) throw invalidClient();
    return client;
  }
  const secret = method === "client_secret_basic" ? request.basic?.secret : request.client_secret;
  if (method === "client_secret_basic" && request.client_secret !== undefined) throw invalidClient();
  if (method === "client_secret_post" && request.basic) throw invalidClient();
  if (!secret || !secretMatches(client, secret)) throw invalidClient();
  return client;
}

/** An OAuth error of the token endpoint (RFC 6749 5.2): `{error, error_description}` in our envelope too. */
export function oauthError(error: string, description: string, status = 400): AppError {
  const code = error === "invalid_client" ? "invalid_client" : error === "invalid_grant" ? "invalid_grant" : "validation_failed";
  return new AppError(code, { status, message: description, extra: { error, error_description: description } });
}

function invalidClient(): AppError {
  return oauthError("invalid_client", "Invalid client credentials", 401);
}
