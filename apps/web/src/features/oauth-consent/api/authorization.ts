import { ErrorCode } from "@memory-box/contract";
import { isAuthApiError } from "@supabase/auth-js";

import { getAuthClient } from "@/lib/auth-client";

/** An app's request to use the member's account, as the auth server describes it for the consent page (ADR 0075). */
export interface AuthorizationRequest {
  authorizationId: string;
  /** The registered address the member goes back to after answering. */
  redirectUri: string;
  client: { id: string; name: string; uri: string };
  /** Who is signed in here: the account the app would use. */
  email: string;
  /** What the app asks for: OpenID Connect's scopes (`openid`, `email`, `profile`, `phone`). */
  scopes: string[];
}

/** What opening a request gives: the request to answer, or (the member already allowed it) where to go at once. */
export type OpenedRequest =
  { kind: "ask"; request: AuthorizationRequest } | { kind: "redirect"; url: string } | { kind: "gone" } | { kind: "failed" };

/**
 * Reads a request by its id (the `authorization_id` the auth server put in the address). One that
 * expired, was answered, or belongs to another account is "gone": the server says only that it
 * does not know it.
 */
export async function openAuthorization(authorizationId: string): Promise<OpenedRequest> {
  const { data, error } = await getAuthClient().oauth.getAuthorizationDetails(authorizationId);
  if (error) return failure(error);
  if ("redirect_url" in data) return { kind: "redirect", url: data.redirect_url };
  return {
    kind: "ask",
    request: {
      authorizationId: data.authorization_id,
      redirectUri: data.redirect_uri,
      client: { id: data.client.id, name: data.client.name, uri: data.client.uri },
      email: data.user.email,
      scopes: data.scope.split(" ").filter(Boolean),
    },
  };
}

/** Allows or denies a request; where to send the member back to (with the code, or the refusal). */
export async function answerAuthorization(
  authorizationId: string,
  allow: boolean,
): Promise<{ kind: "redirect"; url: string } | { kind: "gone" } | { kind: "failed" }> {
  const oauth = getAuthClient().oauth;
  // The page sends the member on itself (`redirect`), so a test and the page see the same thing.
  const { data, error } = allow
    ? await oauth.approveAuthorization(authorizationId, { skipBrowserRedirect: true })
    : await oauth.denyAuthorization(authorizationId, { skipBrowserRedirect: true });
  if (error) return failure(error);
  return { kind: "redirect", url: data.redirect_url };
}

/** A refusal the page can name: gone (404, or no longer pending), else a failure to try again (the connection, the server). */
function failure(error: Error): { kind: "gone" } | { kind: "failed" } {
  // Not found (`oauth_authorization_not_found`: expired, or another account's), or refused as no
  // longer pending (already answered): for the member, the request is gone either way.
  if (isAuthApiError(error) && (error.status === 404 || (error.status === 400 && error.code === ErrorCode.validation_failed)))
    return { kind: "gone" };
  return { kind: "failed" };
}
