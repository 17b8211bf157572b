import { createHash, randomBytes } from "node:crypto";
import { expect, test } from "./fixtures";
import { currentServer, expectAccessible, screenshotsAtWidths, serviceToken, signIn } from "./support";

/*
 * Issue #36, the OAuth 2.1 server (ADR 0075): another app asks to use a member's account. The
 * member's browser goes to /auth/v1/oauth/authorize, lands on the web app's consent page, allows
 * (or denies), and goes back to the app's address with a code (or the refusal); the app exchanges
 * the code with its PKCE verifier for a session that may read who the member is and nothing else.
 * The app's address is never reached: the journey answers it in the browser and reads what came.
 */

const callback = "http://127.0.0.1:9/callback";

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

test("an app asks to use the member's account: the consent page says who and what, Allow sends a code the app turns into a session that reads the member and nothing else; Deny sends the refusal", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const server = currentServer();
  const admin = { authorization: `Bearer ${await serviceToken()}` };
  const registered = await request.post(`${server.url}/auth/v1/admin/oauth/clients`, {
    headers: admin,
    data: {
      client_name: `Photo printer ${Date.now().toString(36)}`,
      redirect_uris: [callback],
      token_endpoint_auth_method: "none",
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const client = (await registered.json()) as { client_id: string; client_name: string };

  try {
    await page.route(`${callback}**`, (route) =>
      route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Back in the app</title>" }),
    );
    const email = await signIn(page, "plain");

    // Allow.
    const allowed = pkce();
    const authorize = (state: string, challenge: string) =>
      `/auth/v1/oauth/authorize?${new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: callback,
        response_type: "code",
        scope: "openid email",
        state,
        code_challenge: challenge,
        code_challenge_method: "S256",
      })}`;
    await page.goto(authorize("first-state", allowed.challenge));
    await expect(page).toHaveURL(/\/oauth\/consent\?authorization_id=/);
    await expect(page.getByRole("heading", { level: 1, name: `Allow ${client.client_name} to use your account?` })).toBeVisible();
    await expect(page.getByText(`asks to sign you in with your Memory Box account, ${email}.`)).toBeVisible();
    await expect(page.getByRole("listitem")).toHaveText(["Know that it is you", "See your email address"]);
    await expect(page.getByText("After you answer, you go back to 127.0.0.1:9.")).toBeVisible();
    await expectAccessible(page, "the OAuth consent page");
    await screenshotsAtWidths(page, "oauth-consent");

    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(`${callback}?**`);
    const answer = new URL(page.url()).searchParams;
    expect(answer.get("state")).toBe("first-state");
    const code = answer.get("code")!;
    expect(code).toBeTruthy();

    // The app's side: the code and its verifier for a session of the app's own.
    const exchange = () =>
      request.post(`${server.url}/auth/v1/oauth/token`, {
        form: {
          grant_type: "authorization_code",
          code,
          code_verifier: allowed.verifier,
          redirect_uri: callback,
          client_id: client.client_id,
        },
      });
    const exchanged = await exchange();
    expect(exchanged.status(), await exchanged.text()).toBe(200);
    const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string; token_type: string };
    expect(tokens.token_type.toLowerCase()).toBe("bearer");
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    const user = await request.get(`${server.url}/auth/v1/user`, { headers: bearer });
    expect(user.status()).toBe(200);
    expect(((await user.json()) as { email: string }).email).toBe(email);
    // Nothing of the collection: its memories, its members.
    for (const path of ["/api/v1/memories", "/api/v1/members"]) {
      const refused = await request.get(`${server.url}${path}`, { headers: bearer });
      expect(refused.status(), path).toBe(403);
      expect(((await refused.json()) as { code: string }).code).toBe("oauth_client_session_not_allowed");
    }
    // The code was for one exchange.
    expect((await exchange()).status()).toBe(400);

    // Deny, on a request for a scope not allowed yet (an allowed one would pass on at once).
    const denied = pkce();
    await page.goto(authorize("second-state", denied.challenge).replace("scope=openid+email", "scope=profile"));
    await page.getByRole("button", { name: "Deny" }).click();
    await page.waitForURL(`${callback}?**`);
    const refusal = new URL(page.url()).searchParams;
    expect(refusal.get("error")).toBe("access_denied");
    expect(refusal.get("state")).toBe("second-state");
    expect(refusal.get("code")).toBeNull();
  } finally {
    await request.delete(`${server.url}/auth/v1/admin/oauth/clients/${client.client_id}`, { headers: admin });
  }
});
