import { type Browser, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  accessTokenOf,
  confirmationLink,
  emailOf,
  expectAccessible,
  freshEmail,
  fromNewestMail,
  greeting,
  memberPage,
  password,
  signIn,
} from "./support";

/** A browser of its own for each person. */
async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

async function openMembers(page: Page): Promise<void> {
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByRole("link", { name: "Members" }).click();
  await expect(page.getByRole("heading", { name: /^Members \(\d+\)$/ })).toBeVisible();
}

test("the owner invites the partner from Members; the partner signs up from the e-mailed link and is in", async ({ browser }) => {
  test.setTimeout(90_000);
  const owner = await memberPage(browser, "owner");
  const ownerEmail = emailOf("owner");
  await openMembers(owner);
  // Members as an owner sees it is checked with axe by the screens journey (e2e/screens.spec.ts).

  const partnerEmail = freshEmail("partner");
  await owner.getByLabel("Invite someone").fill(partnerEmail);
  await owner.getByRole("button", { name: "Send invitation" }).click();
  // This server has no mail server: the link is shown to pass on, and the mail waits in the outbox.
  await expect(owner.getByText(`Send this link to ${partnerEmail}`)).toBeVisible();
  const shownLink = await owner.getByLabel("Invitation link").inputValue();
  const invitation = owner.getByRole("listitem", { name: partnerEmail });
  // When and by whom, in one sentence (so each language can order its words).
  await expect(invitation).toContainText(/Invited .+ by \S/);
  await expectAccessible(owner, "members with a pending invitation", "serious");

  // A member's address is refused at the field, which keeps it for correcting.
  await owner.getByLabel("Invite someone").fill(ownerEmail.toUpperCase());
  await owner.getByRole("button", { name: "Send invitation" }).click();
  await expect(owner.getByRole("alert")).toHaveText(`${ownerEmail} is already a member.`);
  await expect(owner.getByLabel("Invite someone")).toHaveAttribute("aria-invalid", "true");

  const mailedLink = (await fromNewestMail(partnerEmail, /(https?:\/\/[^\s"<>]+\/auth\?view=signup[^\s"<>]+)/)).replaceAll(
    "&amp;",
    "&",
  );
  expect(mailedLink).toBe(shownLink);

  const partner = await newPage(browser);
  await partner.goto(mailedLink);
  await expect(partner.getByRole("tab", { name: "Sign Up" })).toHaveAttribute("aria-selected", "true");
  await expect(partner.getByLabel("Email")).toHaveValue(partnerEmail);
  await partner.getByLabel("Password", { exact: true }).fill(password);
  await partner.getByRole("button", { name: "Sign Up" }).click();
  await expect(partner.getByText("Check your email for confirmation link")).toBeVisible();
  await partner.goto(await confirmationLink(partnerEmail));
  await expect(greeting(partner)).toBeVisible();

  await owner.reload();
  const joined = owner.getByRole("listitem", { name: partnerEmail.split("@")[0] });
  await expect(joined).toContainText(partnerEmail);
  await expect(joined).toContainText(/Joined .* · invited by owner-/);
  await expect(owner.getByRole("heading", { name: /^Waiting to sign up/ })).toHaveCount(0);

  // The owner removes the partner: the partner's next request is refused and they land on sign-in.
  await joined.getByRole("button", { name: "Remove" }).click();
  await expectAccessible(owner, "remove member question", "serious");
  await owner.getByRole("alertdialog").getByRole("button", { name: "Remove" }).click();
  await expect(owner.getByText("Member removed")).toBeVisible();
  await expect(joined).toHaveCount(0);
  await partner.reload();
  await expect(partner).toHaveURL(/\/auth/);

  await owner.context().close();
  await partner.context().close();
});

test("a member who is not an owner sees who is in and cannot reach the owner's actions, on the page or through the API", async ({
  page,
}) => {
  await signIn(page, "plain");
  await openMembers(page);
  await expect(page.getByText("Only an owner can invite or remove members.")).toBeVisible();
  await expect(page.getByLabel("Invite someone")).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^(Remove|Make owner|Make member|Take back)$/ })).toHaveCount(0);
  await expectAccessible(page, "members (not an owner)", "serious");

  const headers = { Authorization: `Bearer ${await accessTokenOf(page)}` };
  const invited = await page.request.post("/api/v1/members/invitations", { headers, data: { email: freshEmail("sneaky") } });
  expect(invited.status()).toBe(403);
  expect(await invited.json()).toMatchObject({ code: "owner_only" });
  const directory = (await (await page.request.get("/api/v1/members", { headers })).json()) as {
    members: { id: string }[];
    invitations: unknown[];
  };
  expect(directory.invitations).toEqual([]);
  const removed = await page.request.delete(`/api/v1/members/${directory.members[0]!.id}`, { headers });
  expect(removed.status()).toBe(403);
});
