import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible, freshEmail, invite, serviceToken } from "./support";

// SAML single sign-on (ADR 0036) in the browser: the identity provider playwright.config.ts starts
// (e2e/saml-identity-provider.mjs) is registered here through the admin API for one household
// domain, as an operator registers theirs. Whatever address is typed at its page is the person.

const identityProvider = `http://127.0.0.1:${Number(process.env.E2E_SAML_PORT ?? 18082)}`;
const entityId = "urn:memory-box:e2e:saml-identity-provider";
/** The household's domain, registered for the identity provider and for no other journey. */
const domain = "sso-family.example";

test.beforeAll(async ({ playwright, server }) => {
  const admin = await playwright.request.newContext({
    baseURL: server.url,
    extraHTTPHeaders: { authorization: `Bearer ${await serviceToken()}` },
  });
  // Not through `admin`: the service-role token is for the product only.
  const metadata = await fetch(`${identityProvider}/metadata`);
  expect(metadata.status).toBe(200);
  const provider = { type: "saml", metadata_xml: await metadata.text(), domains: [domain] };
  const created = await admin.post("/auth/v1/admin/sso/providers", { data: provider });
  if (created.status() !== 201) {
    // Registered by an earlier run against the same data folder (or a retried worker): its entity ID
    // is the same, its certificate is this start's, so the registration is brought up to date.
    expect(created.status(), await created.text()).toBe(422);
    expect(await created.json()).toMatchObject({ error_code: "saml_idp_already_exists" });
    const listed = (await (await admin.get("/auth/v1/admin/sso/providers")).json()) as {
      items: { id: string; saml: { entity_id: string } }[];
    };
    const existing = listed.items.find((item) => item.saml.entity_id === entityId);
    expect(existing).toBeDefined();
    const updated = await admin.put(`/auth/v1/admin/sso/providers/${existing!.id}`, {
      data: { metadata_xml: provider.metadata_xml, domains: provider.domains },
    });
    expect(updated.status(), await updated.text()).toBe(200);
  }
  await admin.dispose();
});

const refusal = (page: Page) => page.getByRole("alert").filter({ hasText: "Signing in with single sign-on did not work" });

/**
 * From /auth: types `email` in the sign-in form, continues with single sign-on, signs in as `email`
 * at the identity provider's page, and waits for its page to post the answer to the product.
 * Returns that post's form.
 */
async function signInWithSingleSignOn(page: Page, email: string): Promise<URLSearchParams> {
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Continue with single sign-on" }).click();
  await page.waitForURL((url) => url.origin === identityProvider && url.pathname === "/sso");
  await expect(page.getByRole("heading", { name: "Local SAML ID" })).toBeVisible();
  const posted = page.waitForRequest(
    (request) => request.method() === "POST" && new URL(request.url()).pathname === "/auth/v1/sso/saml/acs",
  );
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Sign in" }).click();
  return new URLSearchParams((await posted).postData() ?? "");
}

test('"Continue with single sign-on" with an invited address of the household\'s domain lands signed in on home', async ({
  page,
}) => {
  const email = freshEmail("sso", domain);
  await invite(page.request, email);
  await page.goto("/auth");
  await expect(page.getByRole("button", { name: "Continue with single sign-on" })).toBeVisible();

  const form = await signInWithSingleSignOn(page, email);
  // The HTTP-POST binding: the identity provider's page posted a signed answer and the relay state.
  expect(form.get("SAMLResponse")).toBeTruthy();
  expect(form.get("RelayState")).toBeTruthy();
  const greeting = page.getByText(new RegExp(`^Welcome back, ${email.split("@")[0]}!$`)).filter({ visible: true });
  await expect(greeting).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/");
  // The session is the page's own now: a reload keeps the member signed in.
  await page.reload();
  await expect(greeting).toBeVisible();

  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("list", { name: "Connected accounts" }).getByRole("listitem")).toHaveText([
    `Single sign-on · ${email}Disconnect`,
  ]);
});

test("an address of the household's domain that is not invited comes back to /auth with the reason", async ({ page }) => {
  await page.goto("/auth");
  await signInWithSingleSignOn(page, freshEmail("sso-stranger", domain));

  await expect(refusal(page)).toContainText("This email address is not invited to access the platform");
  expect(new URL(page.url()).pathname).toBe("/auth");
  await expect(page.getByRole("tab", { name: "Sign In" })).toBeVisible();
  await expect(page.getByText(/^Welcome back, /)).toHaveCount(0);
  await expectAccessible(page, "a single sign-on refusal", "serious");
});
