import { expect } from "vitest";
import { serviceTokenCommand } from "../src/cli/service-token.command";
import type { AuthTestServer } from "./auth-fixtures";

// Shared by the single sign-on tests (ADR 0036): the operator's token, and the browser posting an
// identity provider's answer to the assertion consumer.

/** A service-role token, as `npm run service-token` prints it. */
export async function operatorToken(server: AuthTestServer): Promise<string> {
  const lines: string[] = [];
  await serviceTokenCommand.run({ args: [], db: server.db, out: (line) => lines.push(line), config: server.testApp.config });
  return lines[0]!;
}

/** The browser posting the identity provider's answer (HTTP-POST binding): where it is sent next. */
export async function postAssertion(server: AuthTestServer, form: Record<string, string>): Promise<URL> {
  const response = await fetch(`${server.authUrl}/sso/saml/acs`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
    redirect: "manual",
  });
  expect(response.status).toBe(302);
  return new URL(response.headers.get("location")!);
}
