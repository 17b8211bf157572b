import { supportedLocales } from "@memory-box/messages";
import { catalogue } from "./catalogue-text";
import { expect, test } from "./fixtures";
import { todaysShare } from "./run-share";
import { expectAccessible, freshEmail, fromNewestMail, invite, newestMailTo, password } from "./support";

/**
 * A couple who read German, and one who read Arabic (right to left), use Memory Box in their own
 * language from the first screen on: sign up, read the e-mail, confirm and add a memory, every text
 * the one the catalogue gives for their browser's language. The texts are read from the catalogue,
 * so the journey checks that the language reaches each place, not the wording.
 */
/** The text before a message's first placeholder ("Willkommen zurück, " of "Willkommen zurück, {name}!"). */
function leadOf(message: string): string {
  return message.split("{")[0]!;
}

// German or Arabic, by the day; both in the full matrix (e2e/run-share.ts).
const journeys = todaysShare([
  { locale: "de", browserLocale: "de-DE", direction: "ltr" },
  { locale: "ar", browserLocale: "ar-EG", direction: "rtl" },
]).filter((journey) => (supportedLocales as readonly string[]).includes(journey.locale));

for (const { locale, browserLocale, direction } of journeys) {
  test(`in ${locale}: a new member signs up, reads the e-mail, confirms and adds a memory, all in the browser's language`, async ({
    browser,
    baseURL,
  }) => {
    const messages = catalogue(locale);
    const context = await browser.newContext({ baseURL, locale: browserLocale, viewport: { width: 375, height: 812 } });
    const page = await context.newPage();
    const email = freshEmail(`lang-${locale}`);
    await invite(page.request, email);

    await page.goto("/auth");
    await expect(page.locator("html")).toHaveAttribute("lang", locale);
    await expect(page.locator("html")).toHaveAttribute("dir", direction);
    await page.getByRole("tab", { name: messages["auth.tab.signUp"] }).click();
    await page.getByLabel(messages["auth.email.label"]!).fill(email);
    await page.getByLabel(messages["auth.password.label"]!, { exact: true }).fill(password);
    await page.getByRole("button", { name: messages["auth.signUp.submit"], exact: true }).click();
    await expect(page.getByRole("heading", { name: messages["auth.code.enter"] })).toBeVisible();

    // The mail speaks the member's language: its button's text is the catalogue's.
    const link = (await fromNewestMail(email, /(https?:\/\/[^\s"<>]+\/auth\/v1\/verify\?[^\s"<>]+)/)).replaceAll("&amp;", "&");
    expect(newestMailTo(email)).toContain(messages["mail.confirmation.action"]);

    await page.goto(link);
    await expect(page.getByText(leadOf(messages["home.header.welcome"]!)).filter({ visible: true })).toBeVisible();

    const title = `${locale} ${Date.now()}`;
    await page.getByRole("button", { name: messages["home.header.addMemory"] }).first().click();
    const dialog = page.getByRole("dialog", { name: messages["memory.form.addTitle"] });
    await dialog.getByLabel(messages["memory.form.title"]!).fill(title);
    await dialog.getByRole("button", { name: messages["memory.form.save"] }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("link", { name: title })).toBeVisible();
    // Arabic home at 375 px is checked with axe by the screens journey in every run; German here.
    if (locale !== "ar") await expectAccessible(page, `home in ${locale}, 375 px`);

    await context.close();
  });
}
