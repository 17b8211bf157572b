import type { SingleSignOnOverview, SingleSignOnProvider } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/database";
import { createMember, type TestMember } from "../../../test/members";
import { createSamlTestProvider, type TestSamlProvider } from "../../../test/saml-test-provider";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

// Owners register the household's SAML identity provider from Settings (ADR 0036): the same
// service as the admin API, behind the owner check instead of a service-role token.

const unknownId = "6f1b2c3d-0000-4000-8000-000000000000";

describe.each(testEngines())("single sign-on for owners on %s", (engine) => {
  let testApp: TestApp;
  let ann: TestMember;
  let ben: TestMember;
  let idp: TestSamlProvider;

  beforeAll(async () => {
    idp = await createSamlTestProvider();
    testApp = await createTestApp(engine, {
      env: { AUTH_RATE_LIMITS: "false", AUTH_SAML_ENABLED: "true", PUBLIC_URL: "https://box.example" },
    });
    // The first account to join an instance without an owner becomes its owner.
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    ben = await createMember(testApp, "ben@memory-box.test", "Ben");
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const request = (member: TestMember | null, method: "GET" | "POST" | "DELETE", url: string, payload?: object) =>
    testApp.app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload }),
      headers: member ? member.headers : {},
    });

  it("refuses the signed out (401) and members who are not owners (403 owner_only), writing nothing", async () => {
    const routes: ["GET" | "POST" | "DELETE", string, object?][] = [
      ["GET", "/api/v1/single-sign-on"],
      ["POST", "/api/v1/single-sign-on/providers", { metadata_xml: idp.metadataXml, domains: ["ben.example"] }],
      ["DELETE", `/api/v1/single-sign-on/providers/${unknownId}`],
    ];
    for (const [method, url, payload] of routes) {
      expect((await request(null, method, url, payload)).statusCode).toBe(401);
      const refused = await request(ben, method, url, payload);
      expect({ url, status: refused.statusCode }).toEqual({ url, status: 403 });
      expect(refused.json()).toMatchObject({ code: "owner_only" });
    }
    const overview = (await request(ann, "GET", "/api/v1/single-sign-on")).json<SingleSignOnOverview>();
    expect(overview.providers.map((provider) => provider.entity_id)).not.toContain(idp.entityId);
  });

  it("shows an owner what to give the identity provider, registers it for domains, and removes it", async () => {
    const empty = await request(ann, "GET", "/api/v1/single-sign-on");
    expect(empty.statusCode).toBe(200);
    expect(empty.json<SingleSignOnOverview>().service_provider).toEqual({
      entity_id: "https://box.example/auth/v1/sso/saml/metadata",
      assertion_consumer_url: "https://box.example/auth/v1/sso/saml/acs",
      metadata_url: "https://box.example/auth/v1/sso/saml/metadata",
    });

    const created = await request(ann, "POST", "/api/v1/single-sign-on/providers", {
      metadata_xml: idp.metadataXml,
      domains: [" Family.Example "],
    });
    expect(created.statusCode, created.body).toBe(201);
    const provider = created.json<SingleSignOnProvider>();
    expect(provider).toMatchObject({ entity_id: idp.entityId, domains: ["family.example"], metadata_url: null });
    expect((await request(ann, "GET", "/api/v1/single-sign-on")).json<SingleSignOnOverview>().providers).toEqual([provider]);

    const again = await request(ann, "POST", "/api/v1/single-sign-on/providers", {
      metadata_xml: idp.metadataXml,
      domains: ["other.example"],
    });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toMatchObject({ code: "saml_idp_already_exists" });

    // The audit log says which owner did it.
    const database = openDatabase(testApp.config.database);
    try {
      const entries = await database.db
        .selectFrom("audit_log")
        .select(["action", "actor_id"])
        .where("action", "=", "admin.sso_provider_created")
        .execute();
      expect(entries).toEqual([{ action: "admin.sso_provider_created", actor_id: ann.userId }]);
    } finally {
      await database.destroy();
    }

    expect((await request(ann, "DELETE", `/api/v1/single-sign-on/providers/${provider.id}`)).statusCode).toBe(204);
    expect((await request(ann, "GET", "/api/v1/single-sign-on")).json<SingleSignOnOverview>().providers).toEqual([]);
    const gone = await request(ann, "DELETE", `/api/v1/single-sign-on/providers/${provider.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: "sso_provider_not_found" });
  });

  it("refuses an owner's metadata address inside the server's network (ADR 0045), writing nothing", async () => {
    const inside = [
      "https://localhost/metadata",
      "https://127.0.0.1/metadata",
      "https://10.1.2.3/metadata",
      "https://172.16.0.1/metadata",
      "https://192.168.1.1/metadata",
      "https://169.254.169.254/latest/meta-data/",
      "https://100.64.0.1/metadata",
      "https://0.0.0.0/metadata",
      "https://[::1]/metadata",
      "https://[fd00::1]/metadata",
      "https://[fe80::1]/metadata",
      "https://[::ffff:169.254.169.254]/metadata",
    ];
    for (const metadata_url of inside) {
      const response = await request(ann, "POST", "/api/v1/single-sign-on/providers", {
        metadata_url,
        domains: ["family.example"],
      });
      expect({ metadata_url, status: response.statusCode }).toEqual({ metadata_url, status: 400 });
      expect(response.json()).toMatchObject({ code: "saml_metadata_address_refused" });
    }
    expect((await request(ann, "GET", "/api/v1/single-sign-on")).json<SingleSignOnOverview>().providers).toEqual([]);
  });

  it("answers bad input with its code and writes nothing", async () => {
    const other = await createSamlTestProvider();
    const cases: [object, number, string][] = [
      [{ metadata_xml: other.metadataXml, domains: [] }, 400, "validation_failed"],
      [{ metadata_xml: other.metadataXml }, 400, "validation_failed"],
      [{ domains: ["family.example"] }, 400, "validation_failed"],
      [{ metadata_xml: "<not-xml", domains: ["family.example"] }, 400, "validation_failed"],
      [{ metadata_xml: other.metadataXml, domains: ["not a domain"] }, 400, "validation_failed"],
      [{ metadata_url: "http://idp.example/metadata", domains: ["family.example"] }, 400, "validation_failed"],
      [{ metadata_xml: other.metadataXml, domains: ["family.example"], type: "oidc" }, 400, "validation_failed"],
    ];
    for (const [payload, status, code] of cases) {
      const response = await request(ann, "POST", "/api/v1/single-sign-on/providers", payload);
      expect({ payload, status: response.statusCode }).toEqual({ payload, status });
      expect(response.json()).toMatchObject({ code });
    }
    expect((await request(ann, "GET", "/api/v1/single-sign-on")).json<SingleSignOnOverview>().providers).toEqual([]);
    expect((await request(ann, "DELETE", "/api/v1/single-sign-on/providers/not-an-id")).statusCode).toBe(400);
  });
});

describe("single sign-on for owners with SAML off", () => {
  let testApp: TestApp;
  let ann: TestMember;
  beforeAll(async () => {
    testApp = await createTestApp("sqlite", { env: { AUTH_RATE_LIMITS: "false" } });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it("answers 422 sso_provider_disabled, so the screen offers nothing", async () => {
    const response = await testApp.app.inject({ method: "GET", url: "/api/v1/single-sign-on", headers: ann.headers });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: "sso_provider_disabled" });
  });
});
