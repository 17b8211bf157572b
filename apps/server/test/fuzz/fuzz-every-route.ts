import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { Writable } from "node:stream";
import type { Photo } from "@memory-box/contract";
import fc from "fast-check";
import type { HTTPMethods, LightMyRequestResponse } from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as arb from "./arbitraries";
import { describeRequest, problemsWith } from "./check";
import { discoverRoutes, fillPath, placeholders, type RouteSpec } from "./routes";
import { DeepJson, objectFor, poisonsFor, queryFor, toJson } from "./schema";
import { createMember, type TestMember } from "../members";
import { serviceRoleToken } from "../service-token";
import { createTestApp, type TestApp } from "../test-app";
import { availableEngines } from "../test-database";
import { inTodaysShare } from "../test-matrix";
import { type DatabaseHandle, type Engine, openDatabase } from "../../src/db/database";
import { InvitationsRepository } from "../../src/modules/invitations/invitations.repository";
import { heicSample, twoTone } from "../../src/modules/photos/fixtures/test-images";

/**
 * "No 5xx from any input": random bodies, ids, query strings, headers and files thrown at every
 * route the app registers (found through its OpenAPI document and route tree, so new routes are
 * covered without touching this file). Every answer must be below 500, and every error JSON with
 * a stable string code in the envelope of its API. Then a batch of invalid-only requests must
 * leave the database and the upload folder as they were.
 *
 * Each run draws its cases from a new seed (printed at the start), so runs cover different inputs; a
 * run takes an eighth of the full sample per property. The sweep of poisons takes every route in the
 * full matrix (`npm run test:full`); CI's run splits the routes in two halves, one per engine, the
 * halves swapping engines each day, so that every run still sweeps every route once.
 * FUZZ_RUNS multiplies the full sample (default 0.125; 1 is the full run, about 6,900 requests per
 * engine, 30-40 s, for a change to validation or to the fuzz itself); FUZZ_SEED=<the seed printed at
 * the start> replays a run, with the same FUZZ_RUNS; FUZZ_CENSUS=<file> records every
 * bad answer to that file (JSON lines) instead of stopping at the first, to survey a new build;
 * FUZZ_STATS=1 prints, per route, how many requests were sent, their time and their statuses.
 */

const env = { AUTH_RATE_LIMITS: "false", LOG_LEVEL: "error", PHOTO_MAX_UPLOAD_MB: "1" };
const runScale = Number(process.env.FUZZ_RUNS ?? "0.125");
/** One seed per run, for every property: a new one each time unless FUZZ_SEED replays one. */
const seed = process.env.FUZZ_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED);
console.info(`fuzz seed ${seed} (FUZZ_SEED=${seed} replays this run), ${runScale} of the full sample (FUZZ_RUNS)`);
/** Each property's own seed, from the run's and its test's name: engines and routes draw different cases. */
const runs = (count: number) => ({
  numRuns: Math.max(1, Math.round(count * runScale)),
  seed: (seed + stringHash(expect.getState().currentTestName ?? "")) | 0,
});
const password = "correct horse battery";
const census = process.env.FUZZ_CENSUS;
const stats = process.env.FUZZ_STATS === "1";
/** Per test: generous, since PostgreSQL on a small CI machine is several times slower than SQLite here. */
const timeout = 300_000;

/** The route list, from a throwaway app: `it` blocks are made per route before any engine starts. */
const routes = await (async () => {
  const scratch = await createTestApp("sqlite", { env });
  try {
    return await discoverRoutes(scratch.app);
  } finally {
    await scratch.close();
  }
})();

const isEvents = (route: RouteSpec) => route.path === "/api/v1/events";
const isUpload = (route: RouteSpec) => route.path === "/api/v1/photos" && route.method === "POST";
/** The SSE stream never ends for a member; it is fuzzed on its 401 path only. Uploads have their own property. */
const genericRoutes = routes.filter((route) => !isEvents(route) && !isUpload(route));
const allMethods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** Runs per route: the auth routes hash passwords (slow), the rest are cheap. */
function runsFor(route: RouteSpec): number {
  if (route.path === "/auth/v1/signup" || route.path === "/auth/v1/token" || route.path === "/auth/v1/admin/users") return 60;
  if (route.path.startsWith("/auth/v1")) return 70;
  return 100;
}

/** Registers the fuzz of every route on `engine`: one test file per engine, so the engines run side by side. */
export function fuzzEveryRoute(engine: Engine): void {
  describe(`fuzzing every route on ${engine}`, () => {
    let testApp: TestApp;
    /** The app's database, for invitations and row counts. */
    let database: DatabaseHandle;
    let member: TestMember;
    let memberAuthorization: string;
    let context: arb.FuzzContext;
    let signedUrls: string[] = [];
    let memberCount = 0;
    let sent = 0;
    const serverErrors: string[] = [];
    const statistics: Record<string, { requests: number; ms: number; statuses: Record<number, number> }> = {};

    beforeAll(async () => {
      const logStream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          serverErrors.push(...chunk.toString().split("\n").filter(Boolean));
          done();
        },
      });
      testApp = await createTestApp(engine, { env, logStream });
      database = openDatabase(testApp.config.database);
      member = await createMember(testApp, "fuzz@memory-box.test", "Fuzz");
      memberAuthorization = member.headers.authorization;
      const other = await createMember(testApp, "other@memory-box.test", "Other");
      const operatorAuthorization = `Bearer ${await serviceRoleToken(testApp)}`;
      await invite("invited@memory-box.test");
      const images = await sampleImages();

      const photo = await uploadPhoto(images[0]!);
      const loose = await uploadPhoto(images[1]!);
      const memory = await inject({
        method: "POST",
        url: "/api/v1/memories",
        headers: { authorization: memberAuthorization },
        payload: { title: "Fuzzed", tags: ["sea", "Sea "], photo_ids: [photo.id] },
      });
      expect(memory.statusCode, memory.body).toBe(201);
      const bucket = await inject({
        method: "POST",
        url: "/storage/v1/bucket",
        headers: { authorization: operatorAuthorization },
        payload: { name: "fuzz-bucket" },
      });
      expect(bucket.statusCode, bucket.body).toBe(200);

      signedUrls = [photo, loose].flatMap((each) => [each.url, each.preview_url, each.thumbnail_url]);
      context = {
        memberAuthorization: () => memberAuthorization,
        otherAuthorization: other.headers.authorization,
        operatorAuthorization,
        knownIds: [memory.json<{ id: string }>().id, photo.id, loose.id, other.userId, "memory-photos", "fuzz-bucket"],
        knownEmails: [member.email, other.email, "invited@memory-box.test", "FUZZ@MEMORY-BOX.TEST"],
        images,
        photoKeys: signedUrls.map((url) => keyOf(url)),
        photoIds: [photo.id, loose.id],
      };
    });

    afterAll(async () => {
      console.info(`fuzz on ${engine}: ${sent} requests sent`);
      if (stats) {
        for (const [route, { requests, ms, statuses }] of Object.entries(statistics)) {
          console.info(
            `${route.padEnd(60)} ${String(requests).padStart(5)} requests ${String(Math.round(ms)).padStart(6)} ms  ${JSON.stringify(statuses)}`,
          );
        }
      }
      await database?.destroy();
      await testApp?.close();
    });

    async function invite(email: string): Promise<void> {
      await new InvitationsRepository(database.db).add([email], "fuzz", new Date().toISOString());
    }

    const inject = (request: {
      method: HTTPMethods;
      url: string;
      headers?: Record<string, string>;
      payload?: string | Buffer | object;
    }) => testApp.app.inject(request);

    async function uploadPhoto(data: Buffer): Promise<Photo> {
      const upload = arb.singleFileUpload(data);
      const response = await inject({
        method: "POST",
        url: "/api/v1/photos",
        headers: { authorization: memberAuthorization, "content-type": upload.contentType! },
        payload: upload.payload!,
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<Photo>();
    }

    /**
     * The auth routes may end the member's session (logout, a password change): sign in again (an
     * answer that must be right too: stored input must never lock an account out), or make a new
     * member when the account itself was changed beyond use.
     */
    async function ensureMemberSession(): Promise<void> {
      const check = await inject({ method: "GET", url: "/auth/v1/user", headers: { authorization: memberAuthorization } });
      if (check.statusCode === 200) return;
      const signIn = await send(json("POST", "/auth/v1/token?grant_type=password", {}, { email: member.email, password }), {
        probe: true,
      });
      if (signIn.statusCode === 200) {
        memberAuthorization = `Bearer ${signIn.json<{ access_token: string }>().access_token}`;
        return;
      }
      member = await createMember(testApp, `fuzz-${++memberCount}@memory-box.test`, "Fuzz");
      memberAuthorization = member.headers.authorization;
    }

    /**
     * After a write the fuzz got through, the reads that show stored data must still answer: a value
     * accepted once must not break every later listing, sign-in or token refresh.
     */
    async function probeAfterWrite(request: arb.FuzzRequest): Promise<void> {
      const asMember = { authorization: memberAuthorization };
      const asOperator = { authorization: context.operatorAuthorization };
      await send(printable({ method: "GET", url: "/api/v1/memories?limit=100", headers: asMember }), { probe: true });
      await send(printable({ method: "GET", url: "/api/v1/tags", headers: asMember }), { probe: true });
      await send(printable({ method: "GET", url: "/storage/v1/bucket", headers: asOperator }), { probe: true });
      await send(printable({ method: "GET", url: "/auth/v1/admin/users?per_page=1000", headers: asOperator }), { probe: true });
      if (request.url.startsWith("/auth/v1")) {
        await send(printable({ method: "GET", url: "/auth/v1/user", headers: asMember }), { probe: true });
        await send(json("POST", "/auth/v1/token?grant_type=password", {}, { email: member.email, password }), { probe: true });
        await ensureMemberSession();
      }
    }

    /**
     * Sends one request and fails with everything needed to reproduce it when the answer is wrong.
     * The fuzzed request that led to a failing probe is reported with it.
     */
    let lastWrite: arb.FuzzRequest | undefined;
    async function send(
      request: arb.FuzzRequest,
      options: { probe?: boolean; timeoutMs?: number; label?: string } = {},
    ): Promise<LightMyRequestResponse> {
      const timeoutMs = options.timeoutMs ?? 15_000;
      if (!options.probe) sent++;
      const started = performance.now();
      serverErrors.length = 0;
      let timer: NodeJS.Timeout | undefined;
      const response = await Promise.race([
        inject({
          method: request.method,
          url: request.url,
          headers: request.headers,
          ...(request.payload === undefined ? {} : { payload: request.payload }),
        }),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${timeoutMs} ms\n  ${describeRequest(request)}`)),
            timeoutMs,
          );
        }),
      ]).finally(() => clearTimeout(timer));
      if (stats && !options.probe) {
        const key = options.label ?? request.route ?? `${request.method} ${request.url.split("?")[0] ?? ""}`;
        const entry = (statistics[key] ??= { requests: 0, ms: 0, statuses: {} });
        entry.requests++;
        entry.ms += performance.now() - started;
        entry.statuses[response.statusCode] = (entry.statuses[response.statusCode] ?? 0) + 1;
      }
      const problems = problemsWith(request, response);
      if (problems.length > 0) {
        const report = {
          problems,
          request: describeRequest(request),
          ...(options.probe && lastWrite ? { after: describeRequest(lastWrite) } : {}),
          status: response.statusCode,
          body: response.body.slice(0, 400),
          log: serverErrors.join("\n").slice(0, 3000),
        };
        if (census === undefined) {
          throw new Error(
            [
              report.problems.join("; "),
              `request:\n  ${report.request}`,
              ...(report.after ? [`after this write was accepted:\n  ${report.after}`] : []),
              `response: ${report.status} ${report.body}`,
              `server log:\n${report.log}`,
            ].join("\n"),
          );
        }
        await fs.appendFile(census, `${JSON.stringify({ engine, ...report })}\n`);
      }
      const isWrite = request.method !== "GET" && request.method !== "HEAD" && request.method !== "OPTIONS";
      if (!options.probe && isWrite && response.statusCode < 300) {
        lastWrite = request;
        await probeAfterWrite(request);
      }
      return response;
    }

    /** An id that exists for the route's `{id}`: the memory, the other member, the fuzz bucket… */
    function existingIdFor(path: string): string {
      const [memoryId, , , otherUserId, , bucketId] = context.knownIds;
      if (path.startsWith("/api/v1/memories")) return memoryId!;
      if (path.startsWith("/auth/v1/admin/users")) return otherUserId!;
      if (path.startsWith("/storage/v1/bucket")) return bucketId!;
      return context.knownIds[0]!;
    }

    /** A body for the route: shaped by its schema when the OpenAPI document has one, or anything at all. */
    function bodyFor(route: RouteSpec): fc.Arbitrary<arb.FuzzBody> {
      const generic = arb.body(context);
      if (route.method === "GET" || route.method === "HEAD")
        return fc.oneof({ weight: 5, arbitrary: fc.constant<arb.FuzzBody>({}) }, { weight: 1, arbitrary: generic });
      if (!route.body) return generic;
      const asJson = (value: Record<string, unknown>): arb.FuzzBody => ({
        payload: toJson(value),
        contentType: "application/json",
      });
      return fc.oneof(
        { weight: 3, arbitrary: objectFor(route.body, context, 0, true).map(asJson) },
        { weight: 3, arbitrary: objectFor(route.body, context).map(asJson) },
        { weight: 3, arbitrary: generic },
      );
    }

    /** A request for a route: placeholders filled, query, headers and body all drawn at random. */
    function requestFor(
      route: RouteSpec,
      options: { authorization?: fc.Arbitrary<string | undefined>; body?: fc.Arbitrary<arb.FuzzBody> } = {},
    ): fc.Arbitrary<arb.FuzzRequest> {
      const names = placeholders(route.path);
      const query = route.parameters?.some((parameter) => parameter.in === "query")
        ? fc.oneof(queryFor(route.parameters, context), arb.queryString)
        : arb.queryString;
      return fc
        .record({
          params: fc.tuple(...names.map((name) => (name === "*" ? arb.objectKey(context) : arb.pathValue(context)))),
          query,
          authorization:
            options.authorization ??
            arb.authorization(
              context,
              route.path.startsWith("/auth/v1/admin") ||
                route.path === "/auth/v1/invite" ||
                route.path.startsWith("/storage/v1/bucket")
                ? "operator"
                : "member",
            ),
          headers: arb.extraHeaders,
          body: options.body ?? bodyFor(route),
        })
        .map(({ params, query, authorization, headers, body }) =>
          printable({
            route: `${route.method} ${route.path}`,
            method: route.method,
            url: `${fillPath(route.path, params)}${query}`,
            headers: {
              ...headers,
              ...(authorization === undefined ? {} : { authorization }),
              ...(body.contentType === undefined ? {} : { "content-type": body.contentType }),
            },
            ...(body.payload === undefined ? {} : { payload: body.payload }),
          }),
        );
    }

    it(
      "finds every route",
      () => {
        expect(routes.length).toBeGreaterThan(30);
        expect(
          routes.find((route) => route.method === "POST" && route.path === "/api/v1/memories")?.body?.properties,
        ).toHaveProperty("title");
        expect(routes).toContainEqual({ method: "GET", path: "/api/openapi.json" });
      },
      timeout,
    );

    it(
      "answers the live stream without a valid session with a JSON 401",
      async () => {
        // Never the member's own token: a valid one opens a stream that does not end.
        const invalid = fc.oneof(
          fc.constant(undefined),
          arb.headerText(80).map((value) => `Bearer ${value}`),
          arb.headerText(80),
          fc.nat({ max: 400 }).map((cut) => memberAuthorization.slice(0, memberAuthorization.length - 1 - cut)),
          fc.constant(`${memberAuthorization}x`),
          fc.constant(context.operatorAuthorization),
        );
        await fc.assert(
          fc.asyncProperty(
            fc
              .constantFrom("GET", "HEAD")
              .chain((method) => requestFor({ method, path: "/api/v1/events" }, { authorization: invalid })),
            async (request) => {
              const response = await send(request, { timeoutMs: 5000 });
              expect(response.statusCode, describeRequest(request)).toBe(401);
            },
          ),
          runs(40),
        );
      },
      timeout,
    );

    it(
      "POST /api/v1/photos with random multipart bodies",
      async () => {
        await ensureMemberSession();
        const authorization = fc.oneof(
          { weight: 8, arbitrary: fc.constant(undefined).map(() => memberAuthorization) },
          { weight: 2, arbitrary: arb.authorization(context) },
        );
        await fc.assert(
          fc.asyncProperty(
            requestFor({ method: "POST", path: "/api/v1/photos" }, { authorization, body: arb.multipartBody(context) }),
            async (request) => {
              await send(request);
            },
          ),
          runs(200),
        );
      },
      timeout,
    );

    it(
      "answers tampered signed photo URLs and any Range without a 5xx, in JSON",
      async () => {
        const tampered = fc
          .record({
            url: fc.constantFrom(...signedUrls),
            edit: fc.constantFrom("none", "expires", "token", "key", "drop expires", "drop token", "duplicate", "append"),
            value: fc.oneof(arb.anyText, fc.constantFrom("0", "-1", "9999999999", "99999999999999999999", "1e10", "NaN", "")),
            headers: arb.extraHeaders,
            method: fc.constantFrom("GET", "HEAD"),
          })
          .map(({ url, edit, value, headers, method }): arb.FuzzRequest => {
            const parsed = new URL(url, "http://fuzz");
            const query = parsed.searchParams;
            if (edit === "expires" || edit === "token") query.set(edit, value);
            if (edit === "drop expires") query.delete("expires");
            if (edit === "drop token") query.delete("token");
            if (edit === "duplicate") query.append("token", value);
            const pathname =
              edit === "key"
                ? `${parsed.pathname}${arb.encode(value)}`
                : edit === "append"
                  ? `${parsed.pathname}/${arb.encode(value)}`
                  : parsed.pathname;
            return printable({ method, url: `${pathname}?${query.toString()}`, headers });
          });
        await fc.assert(
          fc.asyncProperty(tampered, async (request) => {
            await send(request, { label: "signed photo URLs, tampered" });
          }),
          runs(120),
        );
      },
      timeout,
    );

    for (const route of genericRoutes) {
      it(
        `${route.method} ${route.path} answers any input below 500, errors as JSON with a code`,
        async () => {
          await ensureMemberSession();
          await fc.assert(
            fc.asyncProperty(requestFor(route), async (request) => {
              await send(request);
            }),
            runs(runsFor(route)),
          );
        },
        timeout,
      );
    }

    it(
      "takes the poisons of every field of every route of its share (NUL, huge numbers, deep JSON…), then and in later reads",
      async () => {
        // A sweep, not a sample: each body field, query parameter and path parameter of each route,
        // as member and as operator, with every value at the edge of its type. The other fields are
        // filled as a well-meaning client would, so the poison gets as far as it can.
        let turn = 0;
        const sweep = [
          ...genericRoutes.filter((route) => route.method !== "DELETE"),
          ...genericRoutes.filter((route) => route.method === "DELETE"),
        ];
        for (const [index, route] of sweep.entries()) {
          if (route.method === "HEAD" || route.path === "/api/openapi.json") continue;
          if (!inTodaysShare(index + availableEngines.indexOf(engine), Math.max(1, availableEngines.length))) continue;
          const bodyFields = route.body ? [...Object.entries(route.body.properties ?? {}), ["extra", undefined] as const] : [];
          const queryFields = (route.parameters ?? []).filter((parameter) => parameter.in === "query");
          const pathNames = placeholders(route.path);
          const targets = [
            ...bodyFields.flatMap(([name, schema]) =>
              poisonsFor(schema, name).map((poison) => ({ where: "body" as const, name, poison })),
            ),
            ...queryFields.flatMap((parameter) =>
              poisonsFor(parameter.schema, parameter.name)
                .filter((poison) => !(poison instanceof DeepJson))
                .map((poison) => ({ where: "query" as const, name: parameter.name, poison })),
            ),
            ...pathNames.flatMap((name) =>
              ["a%00b", "%ff", "x".repeat(2000), "%F0%9F%98%80"].map((poison) => ({ where: "path" as const, name, poison })),
            ),
          ];
          for (const { where, name, poison } of targets) {
            for (const role of ["member", "operator"] as const) {
              turn++;
              const authorization = role === "member" ? memberAuthorization : context.operatorAuthorization;
              const email = `sweep-${turn}@memory-box.test`;
              const base = Object.fromEntries(
                Object.keys(route.body?.properties ?? {}).flatMap((field) =>
                  field.includes("email")
                    ? [[field, email]]
                    : field === "password"
                      ? [[field, password]]
                      : field === "title" || field === "name"
                        ? [[field, `sweep-${turn}`]]
                        : [],
                ),
              );
              // Invited only where the route takes an address: the poison then meets the rules past the list.
              if (Object.values(base).includes(email)) await invite(email);
              const params = pathNames.map((each) =>
                where === "path" && each === name ? String(poison) : existingIdFor(route.path),
              );
              const query =
                where === "query"
                  ? `?${arb.encode(name)}=${arb.encode(typeof poison === "string" ? poison : toJson(poison))}`
                  : "";
              const url = `${fillPath(route.path, params)}${query}`;
              const text =
                route.body || route.method !== "GET" ? toJson(where === "body" ? { ...base, [name]: poison } : base) : undefined;
              await send(
                text === undefined
                  ? printable({ method: route.method, url, headers: { authorization } })
                  : json(route.method, url, { authorization }, undefined, text),
                { label: "poison sweep" },
              );
            }
          }
        }
      },
      timeout,
    );

    it(
      "answers unknown paths, and every method on every path, below 500 with JSON errors",
      async () => {
        const known = genericRoutes.map((route) => route.path);
        const target = fc.oneof(
          fc
            .record({
              prefix: fc.constantFrom(
                "/api",
                "/api/v1",
                "/auth/v1",
                "/auth/v1/admin",
                "/storage",
                "/storage/v1",
                "/storage/v1/object",
                "/rest",
                "/rest/v1/rpc",
              ),
              rest: fc.array(arb.pathValue(context), { maxLength: 3 }),
            })
            .map(({ prefix, rest }) => [prefix, ...rest].join("/")),
          fc.constantFrom(...known),
        );
        await fc.assert(
          fc.asyncProperty(
            fc.tuple(fc.constantFrom(...allMethods), target).chain(([method, path]) => requestFor({ method, path })),
            async (request) => {
              await send(request, { label: "unknown paths and methods" });
            },
          ),
          runs(300),
        );
      },
      timeout,
    );

    it(
      "leaves nothing half-written after a batch of invalid requests",
      async () => {
        await ensureMemberSession();
        const images = context.images;
        const inUse = await uploadPhoto(images[2]!);
        const mine = await uploadPhoto(images[3]!);
        const free = await uploadPhoto(images[0]!);
        const create = async (photoIds: string[]) => {
          const response = await inject({
            method: "POST",
            url: "/api/v1/memories",
            headers: { authorization: memberAuthorization },
            payload: { title: "Kept as it is", tags: ["a", "b"], photo_ids: photoIds },
          });
          expect(response.statusCode, response.body).toBe(201);
          return response.json<{ id: string; version: number }>();
        };
        await create([inUse.id]);
        const target = await create([mine.id]);
        const before = await snapshot();

        const validMemory = fc.record({
          title: fc.string({ minLength: 1, maxLength: 50 }).filter((title) => title.trim() !== "" && !title.includes("\u0000")),
          content: fc.option(
            fc.string({ maxLength: 100 }).filter((content) => !content.includes("\u0000")),
            { nil: null },
          ),
          tags: fc.array(fc.stringMatching(/^[a-z]{1,10}$/), { maxLength: 5 }),
        });
        const poisonedPhotos = fc.oneof(
          fc.uuid().map((unknown) => [free.id, unknown]),
          fc.constant([inUse.id]),
          fc.constant([free.id, free.id]),
          fc.constant([mine.id, inUse.id]),
        );
        const schemaBreaker = fc.constantFrom<Record<string, unknown>>(
          { title: "" },
          { title: 123 },
          { title: "x".repeat(201) },
          { tags: "a" },
          { tags: Array.from({ length: 31 }, (_, i) => `t${i}`) },
          { memory_date: "2023-02-29" },
          { photo_ids: ["not-a-uuid"] },
          { unknown: 1 },
        );
        const asMember = () => ({ authorization: memberAuthorization });
        const invalidUpload = fc.oneof(
          fc
            .uint8Array({ minLength: 0, maxLength: 2048 })
            .filter((bytes) => bytes[0] !== 0xff && bytes[0] !== 0x89 && bytes[0] !== 0x47 && bytes[0] !== 0x52 && bytes[0] !== 0)
            .map((bytes) => Buffer.from(bytes)),
          fc
            .tuple(fc.constantFrom(...images.slice(0, 4)), fc.double({ min: 0, max: 0.3, noNaN: true }))
            .map(([image, cut]) => image.subarray(0, Math.floor(image.length * cut))),
          fc.constant(Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n", "latin1"), Buffer.alloc(1_100_000, 7)])),
        );

        const invalidRequest: fc.Arbitrary<{ request: arb.FuzzRequest; expected: number[] }> = fc.oneof(
          fc.tuple(validMemory, poisonedPhotos).map(([memory, photoIds]) => ({
            request: json("POST", "/api/v1/memories", asMember(), { ...memory, photo_ids: photoIds }),
            expected: [400, 409],
          })),
          fc.tuple(validMemory, schemaBreaker).map(([memory, breaker]) => ({
            request: json("POST", "/api/v1/memories", asMember(), { ...memory, ...breaker }),
            expected: [400],
          })),
          fc.tuple(validMemory, poisonedPhotos).map(([memory, photoIds]) => ({
            request: json("PUT", `/api/v1/memories/${target.id}`, asMember(), { ...memory, photo_ids: photoIds }),
            expected: [400, 409],
          })),
          fc.tuple(validMemory, schemaBreaker).map(([memory, breaker]) => ({
            request: json("PUT", `/api/v1/memories/${target.id}`, asMember(), { ...memory, ...breaker }),
            expected: [400],
          })),
          // A stale or malformed If-Match: refused before anything is written.
          fc
            .tuple(validMemory, fc.constantFrom('"v0"', `"v${target.version + 1}"`, '"v999999999"', "garbage"))
            .map(([memory, ifMatch]) => ({
              request: json(
                "PUT",
                `/api/v1/memories/${target.id}`,
                { ...asMember(), "if-match": ifMatch },
                { ...memory, photo_ids: [] },
              ),
              expected: [400, 409],
            })),
          fc.tuple(validMemory, fc.uuid()).map(([memory, id]) => ({
            request: json("PUT", `/api/v1/memories/${id}`, asMember(), { ...memory, photo_ids: [free.id] }),
            expected: [404],
          })),
          fc.uuid().map((id) => ({
            request: printable({ method: "DELETE", url: `/api/v1/memories/${id}`, headers: asMember() }),
            expected: [404],
          })),
          fc
            .tuple(validMemory, fc.constantFrom(undefined, "Bearer nope", context.operatorAuthorization))
            .map(([memory, authorization]) => ({
              request: json("POST", "/api/v1/memories", authorization ? { authorization } : {}, memory),
              expected: [401],
            })),
          invalidUpload.map((data) => ({
            request: uploadRequest(arb.singleFileUpload(data), asMember()),
            expected: [413, 415, 422],
          })),
          fc.constantFrom(...images).map((data) => ({ request: uploadRequest(arb.singleFileUpload(data), {}), expected: [401] })),
        );

        await fc.assert(
          fc.asyncProperty(invalidRequest, async ({ request, expected }) => {
            const response = await send(request, { label: "invalid-only batch" });
            expect(
              expected,
              `${describeRequest(request)}\n  answered ${response.statusCode} ${response.body.slice(0, 300)}`,
            ).toContain(response.statusCode);
          }),
          runs(150),
        );

        expect(await snapshot()).toEqual(before);
      },
      timeout,
    );

    it(
      "leaves no temporary upload files behind",
      async () => {
        expect(await filesUnder(path.join(testApp.config.dataDir, "uploads"))).toEqual([]);
      },
      timeout,
    );

    /** Row counts of the tables a save writes, the stored photo objects (and writes in progress), and the upload folder. */
    async function snapshot() {
      const count = async (table: "memories" | "photos" | "memory_tags") =>
        Number(
          (
            await database.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as("count"))
              .executeTakeFirstOrThrow()
          ).count,
        );
      return {
        memories: await count("memories"),
        photos: await count("photos"),
        memoryTags: await count("memory_tags"),
        // LocalBlobStore's layout: objects/<bucket>/<key>, and .tmp/ for writes in progress.
        photoObjects: (await filesUnder(path.join(testApp.config.dataDir, "storage", "objects", "memory-photos"))).length,
        storageWrites: await filesUnder(path.join(testApp.config.dataDir, "storage", ".tmp")),
        uploads: await filesUnder(path.join(testApp.config.dataDir, "uploads")),
      };
    }
  });
}

function stringHash(text: string): number {
  return createHash("sha256").update(text).digest().readInt32LE(0);
}

/** fast-check prints counterexamples with this: megabyte bodies and long tokens are cut. */
function printable(request: arb.FuzzRequest): arb.FuzzRequest {
  return Object.defineProperty(request, fc.toStringMethod, { value: () => describeRequest(request), enumerable: false });
}

function json(
  method: string,
  url: string,
  headers: Record<string, string>,
  value: unknown,
  text = JSON.stringify(value),
): arb.FuzzRequest {
  return printable({ method, url, headers: { ...headers, "content-type": "application/json" }, payload: text });
}

function uploadRequest(upload: arb.FuzzBody, headers: Record<string, string>): arb.FuzzRequest {
  return printable({
    method: "POST",
    url: "/api/v1/photos",
    headers: { ...headers, "content-type": upload.contentType! },
    payload: upload.payload!,
  });
}

/** `/storage/v1/object/sign/memory-photos/<key>?…` → `<key>`. */
function keyOf(url: string): string {
  return (url.split("?")[0] ?? "").replace(/^.*\/storage\/v1\/object\/sign\/memory-photos\//, "");
}

async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** Small valid images of every format the pipeline takes. */
async function sampleImages(): Promise<Buffer[]> {
  const base = () => twoTone(48, 32);
  return [
    await base().png().toBuffer(),
    await base().jpeg().toBuffer(),
    await base().webp().toBuffer(),
    await base().gif().toBuffer(),
    await sharp({ create: { width: 1, height: 1, channels: 4, background: "#00000000" } })
      .png()
      .toBuffer(),
    heicSample(),
  ];
}
