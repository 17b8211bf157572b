import { supportedLocales } from "@memory-box/messages";
import { serverMessages } from "@memory-box/messages/server";
import { describe, expect, it } from "vitest";
import { type DigestData, renderDigest } from "./templates";

/**
 * The e-mail digest (ADR 0060) in every language, kept as a file to read: what a member whose
 * partner added memories gets each morning or on Mondays.
 */
const site = "https://memories.example.org";
const memory = (id: string, title: string, date: string | null) => ({ title, date, link: `${site}/memory/${id}` });
const unsubscribeLink = `${site}/unsubscribe?token=0b6e1c2a-5d1f-4c55-9b7e-2f6f7b1c9a10.signature`;

const oneAuthor: DigestData = {
  schedule: "weekly",
  authors: [
    {
      name: "Ben",
      count: 3,
      memories: [
        memory("m1", "Our first dinner at <Chez Léon> & the rain", "2026-11-03"),
        memory("m2", "Sunday walk", null),
        memory("m3", "Grandma's 90th", "1998-06-14"),
      ],
    },
  ],
  siteLink: site,
  unsubscribeLink,
};

const twoAuthorsDaily: DigestData = {
  schedule: "daily",
  authors: [
    { name: "Ben", count: 1, memories: [memory("m4", "The lake", "2026-11-27")] },
    { name: "Cleo", count: 7, memories: [memory("m5", "Kites", "2026-11-27"), memory("m6", "Snow", null)] },
  ],
  siteLink: site,
  unsubscribeLink,
};

describe("the digest mail", () => {
  const english = renderDigest(oneAuthor, serverMessages("en"));

  it("names the partner and the count in the subject, and lists each memory's title and date with its link", () => {
    expect(english.subject).toBe("Ben added 3 memories this week");
    expect(english.text).toContain(`- Sunday walk\n  ${site}/memory/m2`);
    expect(english.text).toContain(`- Grandma's 90th (14 June 1998)\n  ${site}/memory/m3`);
    expect(english.html).toContain(`<a href="${site}/memory/m1" style="color:#b5485d;">`);
  });

  it("escapes the members' titles in the HTML and carries no image", () => {
    expect(english.html).toContain("Our first dinner at &lt;Chez Léon&gt; &amp; the rain");
    expect(english.html).not.toContain("<Chez");
    expect(english.html).not.toMatch(/<img|background-image|url\(/i);
  });

  it("ends with the unsubscribe page's link, in both parts", () => {
    expect(english.text).toMatch(new RegExp(`Unsubscribe from this digest: ${unsubscribeLink.replace(/[.?]/g, "\\$&")}\n$`));
    expect(english.html).toContain(`<a href="${unsubscribeLink}" style="color:#9a8c85;">Unsubscribe from this digest</a>`);
  });

  it("says a single memory and several partners with plurals", () => {
    const daily = renderDigest(twoAuthorsDaily, serverMessages("en"));
    expect(daily.subject).toBe("8 new memories in Memory Box since yesterday");
    expect(daily.text).toContain("Ben added a memory since yesterday");
    expect(daily.text).toContain("Cleo added 7 memories since yesterday");
    expect(daily.text).toContain("…and 5 more memories.");
    const polish = renderDigest(twoAuthorsDaily, serverMessages("pl"));
    expect(polish.text).toContain("Cleo: 7 nowych wspomnień od wczoraj");
    expect(polish.text).toContain("…i jeszcze 5 wspomnień.");
  });

  it("reads as kept in the file, in every language", async () => {
    const mails = Object.fromEntries(
      supportedLocales.flatMap((locale) => [
        [`${locale} weekly`, renderDigest(oneAuthor, serverMessages(locale))],
        [`${locale} daily`, renderDigest(twoAuthorsDaily, serverMessages(locale))],
      ]),
    );
    for (const [name, mail] of Object.entries(mails))
      expect({ name, text: mail.text.includes("mail.") }).toEqual({ name, text: false });
    await expect(JSON.stringify(mails, null, 2) + "\n").toMatchFileSnapshot("./__snapshots__/digest-mails.json");
  });
});
