import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

const defaults = { webDir: "/srv/web", version: "1.2.3" };

describe("loadConfig", () => {
  it("runs on embedded defaults when nothing is set", () => {
    const config = loadConfig({}, defaults);
    expect(config).toMatchObject({
      host: "127.0.0.1",
      port: 8080,
      publicUrl: "http://localhost:8080",
      dataDir: path.resolve("data"),
      database: { engine: "sqlite", file: path.resolve("data", "memory-box.sqlite") },
      storageUrl: undefined,
      smtpUrl: undefined,
      logLevel: "info",
    });
  });

  it("honours PORT, HOST, DATA_DIR and PUBLIC_URL", () => {
    const config = loadConfig(
      { PORT: "9090", HOST: "0.0.0.0", DATA_DIR: "/var/lib/memory-box", PUBLIC_URL: "https://memories.example.org/" },
      defaults,
    );
    expect(config.port).toBe(9090);
    expect(config.host).toBe("0.0.0.0");
    expect(config.dataDir).toBe("/var/lib/memory-box");
    expect(config.database).toEqual({ engine: "sqlite", file: "/var/lib/memory-box/memory-box.sqlite" });
    expect(config.publicUrl).toBe("https://memories.example.org");
  });

  it("picks PostgreSQL for a postgres:// DATABASE_URL and a file for sqlite:", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://mb@db.internal/memories" }, defaults).database).toEqual({
      engine: "postgres",
      url: "postgres://mb@db.internal/memories",
    });
    expect(loadConfig({ DATABASE_URL: "sqlite:///srv/mb.sqlite" }, defaults).database).toEqual({
      engine: "sqlite",
      file: "/srv/mb.sqlite",
    });
  });

  it("takes backups daily, keeping seven, once BACKUP_DIR is set, and none without it", () => {
    expect(loadConfig({}, defaults).backups).toEqual({ dir: undefined, schedule: "off", keep: 7 });
    expect(loadConfig({ BACKUP_DIR: "/srv/backups" }, defaults).backups).toEqual({
      dir: "/srv/backups",
      schedule: "daily",
      keep: 7,
    });
    expect(loadConfig({ BACKUP_DIR: "/srv/backups", BACKUP_SCHEDULE: "hourly", BACKUP_KEEP: "24" }, defaults).backups).toEqual({
      dir: "/srv/backups",
      schedule: "hourly",
      keep: 24,
    });
    expect(() => loadConfig({ BACKUP_SCHEDULE: "sometimes" }, defaults)).toThrow(ConfigError);
    expect(() => loadConfig({ BACKUP_KEEP: "0" }, defaults)).toThrow(ConfigError);
  });

  it("takes videos up to 2 GB and 10 minutes with the packaged FFmpeg, one media job at a time, unless told otherwise", () => {
    expect(loadConfig({}, defaults).videos).toEqual({
      maxBytes: 2 * 1024 ** 3,
      maxSeconds: 600,
      ffmpegPath: undefined,
      ffprobePath: undefined,
      jobConcurrency: 1,
    });
    expect(
      loadConfig(
        {
          VIDEO_MAX_BYTES: "500000000",
          VIDEO_MAX_SECONDS: "90",
          FFMPEG_PATH: "/usr/bin/ffmpeg",
          FFPROBE_PATH: "/usr/bin/ffprobe",
          MEDIA_JOBS_CONCURRENCY: "3",
        },
        defaults,
      ).videos,
    ).toEqual({
      maxBytes: 500_000_000,
      maxSeconds: 90,
      ffmpegPath: "/usr/bin/ffmpeg",
      ffprobePath: "/usr/bin/ffprobe",
      jobConcurrency: 3,
    });
    // A bare name would be looked up in PATH, a relative one where the server happens to start.
    for (const env of [
      { FFMPEG_PATH: "ffmpeg" },
      { FFPROBE_PATH: "bin/ffprobe" },
      { VIDEO_MAX_SECONDS: "0" },
      { VIDEO_MAX_BYTES: "2GB" },
      { MEDIA_JOBS_CONCURRENCY: "0" },
    ]) {
      expect(() => loadConfig(env, defaults)).toThrow(ConfigError);
    }
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ DATABASE_URL: "", STORAGE_URL: " ", HOST: "" }, defaults)).toMatchObject({
      host: "127.0.0.1",
      database: { engine: "sqlite" },
      storageUrl: undefined,
    });
  });

  it("refuses to start and names every invalid variable at once", () => {
    const load = () =>
      loadConfig(
        {
          PORT: "eighty",
          DATABASE_URL: "mysql://x/y",
          SMTP_URL: "http://mail",
          PUBLIC_URL: "memories.example.org",
          LOG_LEVEL: "loud",
          STORAGE_URL: "ftp://x",
        },
        defaults,
      );
    expect(load).toThrow(ConfigError);
    try {
      load();
    } catch (error) {
      const names = (error as ConfigError).problems.map((problem) => problem.split(":")[0]);
      expect(names.sort()).toEqual(["DATABASE_URL", "LOG_LEVEL", "PORT", "PUBLIC_URL", "SMTP_URL", "STORAGE_URL"]);
    }
  });

  it("registers passkeys with PUBLIC_URL's host unless told otherwise, and refuses origins off that host", () => {
    expect(loadConfig({ PUBLIC_URL: "https://memories.example.org" }, defaults).auth.webauthn).toEqual({
      rpId: "memories.example.org",
      rpName: "Memory Box",
      origins: ["https://memories.example.org"],
    });
    const shared = loadConfig(
      { AUTH_WEBAUTHN_RP_ID: "example.org", AUTH_WEBAUTHN_ORIGINS: "https://memories.example.org, https://example.org/" },
      defaults,
    );
    expect(shared.auth.webauthn).toMatchObject({
      rpId: "example.org",
      origins: ["https://memories.example.org", "https://example.org"],
    });
    expect(() =>
      loadConfig({ PUBLIC_URL: "https://memories.example.org", AUTH_WEBAUTHN_RP_ID: "example.net" }, defaults),
    ).toThrow(/AUTH_WEBAUTHN_RP_ID: https:\/\/memories.example.org is not on example.net/);
    expect(() => loadConfig({ AUTH_WEBAUTHN_ORIGINS: "memories.example.org" }, defaults)).toThrow(/AUTH_WEBAUTHN_ORIGINS/);
  });

  it("reads OpenID Connect providers from AUTH_OIDC_PROVIDERS, with openid email profile by default", () => {
    expect(loadConfig({}, defaults).auth.oidcProviders).toEqual([]);
    const providers = [
      { id: "google", name: "Google", issuer: "https://accounts.google.com", client_id: "id.apps", client_secret: "s" },
      {
        id: "keycloak",
        name: "Our Keycloak",
        issuer: "http://localhost:8081/realms/home",
        client_id: "mb",
        scopes: ["openid", "email"],
      },
    ];
    expect(loadConfig({ AUTH_OIDC_PROVIDERS: JSON.stringify(providers) }, defaults).auth.oidcProviders).toEqual([
      {
        id: "google",
        name: "Google",
        issuer: "https://accounts.google.com",
        clientId: "id.apps",
        clientSecret: "s",
        scopes: ["openid", "email", "profile"],
      },
      {
        id: "keycloak",
        name: "Our Keycloak",
        issuer: "http://localhost:8081/realms/home",
        clientId: "mb",
        clientSecret: undefined,
        scopes: ["openid", "email"],
      },
    ]);
  });

  it("refuses AUTH_OIDC_PROVIDERS entries it cannot use, naming each problem", () => {
    const refused = (value: unknown) => () =>
      loadConfig({ AUTH_OIDC_PROVIDERS: typeof value === "string" ? value : JSON.stringify(value) }, defaults);
    const google = { id: "google", name: "Google", issuer: "https://accounts.google.com", client_id: "id" };
    expect(refused("{not json")).toThrow(/AUTH_OIDC_PROVIDERS: must be a JSON array/);
    expect(refused({ ...google })).toThrow(/AUTH_OIDC_PROVIDERS: must be a JSON array/);
    expect(refused([{ ...google, issuer: "http://accounts.example.org" }])).toThrow(/entry 1: issuer must be .*https/);
    expect(refused([{ ...google, id: "Google!" }])).toThrow(/entry 1: id must be 1 to 40 lower-case/);
    expect(refused([{ ...google, id: "email" }])).toThrow(/entry 1: id names a built-in way in/);
    expect(refused([{ ...google, scopes: "openid profile" }])).toThrow(/entry 1: scopes must include openid and email/);
    expect(refused([{ ...google, client_id: "" }])).toThrow(/entry 1: client_id must not be empty/);
    expect(refused([{ ...google, secret: "typo" }])).toThrow(/entry 1: has unknown keys \(secret\)/);
    expect(refused([google, google])).toThrow(/entry 2: id "google" is used twice/);
    expect(refused([{ id: "kc" }])).toThrow(/name is required; entry 1: issuer is required; entry 1: client_id is required/);
  });

  it("rejects a port out of range", () => {
    expect(() => loadConfig({ PORT: "70000" }, defaults)).toThrow(/PORT/);
  });
});
