import type { ExportLink } from "@memory-box/contract";
import { serverCatalogueLocales } from "@memory-box/messages/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthTestServer,
  confirmedMember,
  getUser,
  password,
  signedInClient,
  startAuthServer,
  uniqueEmail,
} from "../test/auth-fixtures";
import { testEngines } from "../test/test-database";
import { zipEntries } from "../test/zip-entries";

// The language the server writes in (ADR 0049): the member's choice on the account, else the
// request's Accept-Language, else English. The server offers here every language its catalogue
// has (German before the product offers it); the code of an error never changes.

const api = "2024-01-01";

interface UserJson {
  user_metadata: Record<string, unknown>;
}
interface ErrorJson {
  code: string;
  message: string;
}

describe.each(testEngines())("the language of mails and errors on %s", (engine) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(engine, { languages: serverCatalogueLocales });
  });
  afterAll(async () => {
    await server?.close();
  });

  const putUser = (accessToken: string, data: Record<string, unknown>) =>
    server.app.inject({
      method: "PUT",
      url: "/auth/v1/user",
      headers: { authorization: `Bearer ${accessToken}`, "x-supabase-api-version": api },
      payload: { data },
    });
  const storedLocale = async (userId: string) =>
    (await server.db.selectFrom("users").select("locale").where("id", "=", userId).executeTakeFirstOrThrow()).locale;

  describe("the account's language", () => {
    it("is set and read through the account's metadata, kept on the account, and cleared with null", async () => {
      const member = await confirmedMember(server);
      const set = await putUser(member.session.access_token, { locale: "de" });
      expect(set.statusCode).toBe(200);
      expect(set.json<UserJson>().user_metadata).toMatchObject({ locale: "de" });
      expect((await getUser(server, member.session.access_token)).json<UserJson>().user_metadata.locale).toBe("de");
      expect(await storedLocale(member.userId)).toBe("de");

      const cleared = await putUser(member.session.access_token, { locale: null });
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json<UserJson>().user_metadata).not.toHaveProperty("locale");
      expect(await storedLocale(member.userId)).toBeNull();
    });

    it("refuses a language it does not offer with 400, writing nothing of the request", async () => {
      const member = await confirmedMember(server, uniqueEmail(), { data: { full_name: "Zoe" } });
      for (const locale of ["xx", "de-XX-nonsense", 42, "", "EN"]) {
        const refused = await putUser(member.session.access_token, { locale, full_name: "Someone Else" });
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toMatchObject({ code: "validation_failed" });
        expect(refused.json<ErrorJson>().message).toMatch(/^The language must be one of en, de/);
      }
      const user = (await getUser(server, member.session.access_token)).json<UserJson>();
      expect(user.user_metadata).not.toHaveProperty("locale");
      expect(user.user_metadata.full_name).toBe("Zoe");
      expect(await storedLocale(member.userId)).toBeNull();
    });

    it("cannot be set on another member's account", async () => {
      const ann = await confirmedMember(server);
      const bob = await confirmedMember(server);
      expect((await putUser(ann.session.access_token, { locale: "en" })).statusCode).toBe(200);
      // Bob's own change is his own; the admin API, which could name Ann, refuses his token.
      expect((await putUser(bob.session.access_token, { locale: "de" })).statusCode).toBe(200);
      const viaAdmin = await server.app.inject({
        method: "PUT",
        url: `/auth/v1/admin/users/${ann.userId}`,
        headers: { authorization: `Bearer ${bob.session.access_token}`, "x-supabase-api-version": api },
        payload: { user_metadata: { locale: "de" } },
      });
      expect(viaAdmin.statusCode).toBe(403);
      expect(await storedLocale(ann.userId)).toBe("en");
      expect(await storedLocale(bob.userId)).toBe("de");
    });
  });

  describe("mails", () => {
    const recover = (email: string, acceptLanguage?: string) =>
      server.app.inject({
        method: "POST",
        url: "/auth/v1/recover",
        headers: { "x-supabase-api-version": api, ...(acceptLanguage ? { "accept-language": acceptLanguage } : {}) },
        payload: { email },
      });

    it("go out in German to a member who chose German, whatever the request asks for", async () => {
      const member = await confirmedMember(server);
      expect((await putUser(member.session.access_token, { locale: "de" })).statusCode).toBe(200);
      expect((await recover(member.email, "en-US,en;q=0.9")).statusCode).toBe(200);
      const mail = await server.smtp.waitForMail(member.email);
      expect(mail.subject).toBe("Setze dein Passwort für Memory Box zurück");
      expect(mail.text).toContain(
        `Jemand – hoffentlich du – möchte das Passwort des Kontos ${member.email} bei Memory Box zurücksetzen.`,
      );
      expect(mail.text).toMatch(/Oder gib stattdessen diesen Code ein: \d{6}/);
      expect(mail.html).toContain('<html lang="de">');
      expect(mail.html).toContain("Neues Passwort wählen");
    });

    it("follow the request's Accept-Language without a choice, and are English without either", async () => {
      const member = await confirmedMember(server);
      expect((await recover(member.email, "de-AT,de;q=0.9,en;q=0.5")).statusCode).toBe(200);
      expect((await server.smtp.waitForMail(member.email)).subject).toBe("Setze dein Passwort für Memory Box zurück");
      server.clock.advance(61);
      expect((await recover(member.email)).statusCode).toBe(200);
      const english = await server.smtp.waitForMail(member.email);
      expect(english.subject).toBe("Reset your Memory Box password");
      expect(english.html).toContain('<html lang="en">');
    });

    it("date a notice by Intl in the member's language", async () => {
      const member = await confirmedMember(server);
      expect((await putUser(member.session.access_token, { locale: "de" })).statusCode).toBe(200);
      const { auth } = await signedInClient(server, member.email);
      expect((await auth.updateUser({ password: `${password} again` })).error).toBeNull();
      const notice = await server.smtp.waitForMail(member.email, { subject: /Passwort/ });
      expect(notice.subject).toBe("Dein Passwort für Memory Box wurde geändert");
      expect(notice.text).toMatch(/wurde am \d{1,2}\. [A-ZÄÖÜ][a-zäöü]+ \d{4} um \d{2}:\d{2} Uhr UTC geändert\./);
    });
  });

  describe("errors", () => {
    const missingMemory = "00000000-0000-4000-8000-000000000000";

    it("answer the product API in the language of Accept-Language, with the same code", async () => {
      const member = await confirmedMember(server);
      const ask = (acceptLanguage?: string) =>
        server.app.inject({
          method: "GET",
          url: `/api/v1/memories/${missingMemory}`,
          headers: {
            authorization: `Bearer ${member.session.access_token}`,
            ...(acceptLanguage ? { "accept-language": acceptLanguage } : {}),
          },
        });
      const german = await ask("de");
      expect(german.statusCode).toBe(404);
      expect(german.json()).toEqual({ code: "memory_not_found", message: "Erinnerung nicht gefunden." });
      expect((await ask()).json()).toEqual({ code: "memory_not_found", message: "Memory not found." });
      expect((await ask("fr-FR,fr")).json()).toEqual({ code: "memory_not_found", message: "Souvenir introuvable." });
      expect((await ask("es-MX,es")).json()).toEqual({ code: "memory_not_found", message: "No se encontró el recuerdo." });
      expect((await ask("kl-GL,kl")).json()).toEqual({ code: "memory_not_found", message: "Memory not found." });
      // Before anyone is known: the request's language still.
      const anonymous = await server.app.inject({ method: "GET", url: "/api/v1/memories", headers: { "accept-language": "de" } });
      expect(anonymous.json()).toEqual({ code: "not_authenticated", message: "Nicht angemeldet" });
    });

    it("answer the product API in the member's chosen language before the browser's", async () => {
      const member = await confirmedMember(server);
      expect((await putUser(member.session.access_token, { locale: "de" })).statusCode).toBe(200);
      const answer = await server.app.inject({
        method: "GET",
        url: `/api/v1/memories/${missingMemory}`,
        headers: { authorization: `Bearer ${member.session.access_token}`, "accept-language": "en" },
      });
      expect(answer.json()).toEqual({ code: "memory_not_found", message: "Erinnerung nicht gefunden." });
    });

    it("stay English on /auth/v1, whatever the account chose, unless the request asks otherwise", async () => {
      const member = await confirmedMember(server);
      expect((await putUser(member.session.access_token, { locale: "de" })).statusCode).toBe(200);
      const signIn = (headers: Record<string, string>) =>
        server.app.inject({
          method: "POST",
          url: "/auth/v1/token?grant_type=password",
          headers,
          payload: { email: member.email, password: "not the password" },
        });
      const current = await signIn({ "x-supabase-api-version": api });
      expect(current.json()).toEqual({ code: "invalid_credentials", message: "Invalid login credentials" });
      const legacy = await signIn({});
      expect(legacy.json()).toEqual({ code: 400, error_code: "invalid_credentials", msg: "Invalid login credentials" });
      const node = await signIn({ "x-supabase-api-version": api, "accept-language": "*" });
      expect(node.json<ErrorJson>().message).toBe("Invalid login credentials");
      const german = await signIn({ "x-supabase-api-version": api, "accept-language": "de-DE" });
      expect(german.json()).toEqual({ code: "invalid_credentials", message: "Die Anmeldedaten sind ungültig." });
    });
  });

  describe("errors written in code", () => {
    it("name the fields at fault in the asker's language where the schema's words are its own, English as ever", async () => {
      const member = await confirmedMember(server);
      const search = (acceptLanguage?: string) =>
        server.app.inject({
          method: "GET",
          url: `/api/v1/memories?q=${"x".repeat(201)}`,
          headers: {
            authorization: `Bearer ${member.session.access_token}`,
            ...(acceptLanguage ? { "accept-language": acceptLanguage } : {}),
          },
        });
      const english = await search();
      expect(english.statusCode).toBe(400);
      expect(english.json()).toEqual({
        code: "validation_failed",
        message: "querystring.q: Too big: expected string to have <=200 characters",
        details: [{ path: "querystring.q", message: "Too big: expected string to have <=200 characters" }],
      });
      expect((await search("de")).json()).toEqual({
        code: "validation_failed",
        message: "querystring.q: Zu groß: erwartet, dass string <=200 Zeichen hat",
        details: [{ path: "querystring.q", message: "Zu groß: erwartet, dass string <=200 Zeichen hat" }],
      });
      // The contract's own words too.
      const untitled = await server.app.inject({
        method: "POST",
        url: "/api/v1/memories",
        headers: { authorization: `Bearer ${member.session.access_token}`, "accept-language": "de" },
        payload: { title: "   ", content: "" },
      });
      expect(untitled.json()).toMatchObject({
        code: "validation_failed",
        message: "body.title: ist erforderlich",
        details: [{ path: "body.title", message: "ist erforderlich" }],
      });
    });

    it("say a wait in the asker's language, the same in English as ever, with the same code", async () => {
      const { email } = await confirmedMember(server);
      const signIn = (attempt: string, acceptLanguage?: string) =>
        server.app.inject({
          method: "POST",
          url: "/auth/v1/token?grant_type=password",
          headers: { "x-supabase-api-version": api, ...(acceptLanguage ? { "accept-language": acceptLanguage } : {}) },
          payload: { email, password: attempt },
        });
      for (let attempt = 1; attempt <= 10; attempt += 1) expect((await signIn(`wrong ${attempt}`)).statusCode).toBe(400);
      const german = await signIn(password, "de-DE,de;q=0.9");
      expect(german.statusCode).toBe(429);
      expect(german.json()).toEqual({
        code: "over_request_rate_limit",
        message: "Für diese Adresse wurden zu viele falsche Passwörter versucht. Versuch es in 1 Sekunde noch einmal.",
      });
      expect((await signIn(password)).json()).toEqual({
        code: "over_request_rate_limit",
        message: "Too many wrong passwords were tried for this address. Try again in 1 second.",
      });
    });
  });

  describe("the export's pages", () => {
    it("are written in the exporting member's language, with the page's lang and dir", async () => {
      const member = await confirmedMember(server);
      expect((await putUser(member.session.access_token, { locale: "de" })).statusCode).toBe(200);
      const headers = { authorization: `Bearer ${member.session.access_token}` };
      const created = await server.app.inject({
        method: "POST",
        url: "/api/v1/memories",
        headers,
        payload: { title: "Am See", content: "Es regnete.", memory_date: "2024-06-01", tags: [] },
      });
      expect(created.statusCode).toBe(201);
      const link = (await server.app.inject({ method: "POST", url: "/api/v1/account/export", headers })).json<ExportLink>();
      const download = await server.app.inject({ method: "GET", url: link.url });
      expect(download.statusCode).toBe(200);
      const entries = await zipEntries(download.rawPayload);
      const index = entries.get("index.html")!.toString("utf8");
      expect(index).toContain('<html lang="de" dir="ltr">');
      expect(index).toMatch(/<p class="meta">1 Erinnerung, exportiert am /);
      const page = [...entries].find(([name]) => name.startsWith("memories/"))![1].toString("utf8");
      expect(page).toContain('<html lang="de" dir="ltr">');
      expect(page).toContain(">Alle Erinnerungen</a>");
    });
  });
});
