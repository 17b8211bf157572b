import { createECDH, randomBytes, type ECDH } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { decrypt } from "http_ece";
import { importJWK, jwtVerify } from "jose";
import type { PushMessage } from "@memory-box/contract";

/** A browser's side of a subscription: its key pair and auth secret, as the test generated them. */
export interface TestSubscriber {
  endpoint: string;
  ecdh: ECDH;
  auth: Buffer;
  /** `PushSubscription.toJSON()`, as the browser sends it. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
}

/** One push message the service accepted, decrypted with the subscriber's keys and its VAPID JWT checked. */
export interface ReceivedPush {
  endpoint: string;
  message: PushMessage;
  receivedAt: number;
  headers: http.IncomingHttpHeaders;
}

/**
 * A Web Push service on loopback http, as the tests' stand-in for FCM or Mozilla's: each request
 * to `/push/<name>` is checked as a real one would be (VAPID: an ES256 JWT signed by the key the
 * `k=` parameter names, `aud` the endpoint's origin, `exp` in the future and within a day) and,
 * for the tests, decrypted (aes128gcm) with the keys of the subscriber it was made for. `answer`
 * chooses the status of the next requests (201 otherwise).
 */
export class PushTestService {
  readonly received: ReceivedPush[] = [];
  /** When each accepted message arrived (ms since the epoch), in order, checked yet or not. */
  readonly arrivals: number[] = [];
  private readonly deferred: {
    subscriber: TestSubscriber;
    headers: http.IncomingHttpHeaders;
    body: Buffer;
    receivedAt: number;
  }[] = [];
  /** Requests refused for a bad signature or undecryptable body: a test expects none. */
  readonly problems: string[] = [];
  /** Every request's status as answered, in order. */
  readonly answered: number[] = [];
  private readonly subscribers = new Map<string, TestSubscriber>();
  private readonly queued: number[] = [];
  private expectedKey: string | undefined;
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly server: http.Server,
    readonly origin: string,
    private readonly deferChecks: boolean,
  ) {}

  /** `deferChecks`: accept at once and check only in `checkDeferred` (benchmarks). */
  static async start(options: { deferChecks?: boolean } = {}): Promise<PushTestService> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const service = new PushTestService(server, `http://127.0.0.1:${port}`, options.deferChecks ?? false);
    server.on("request", (request: http.IncomingMessage, response: http.ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        void service.handle(request, Buffer.concat(chunks)).then((status) => response.writeHead(status).end());
      });
    });
    return service;
  }

  /** The instance's VAPID public key every request must be signed with. */
  expectKey(publicKey: string): void {
    this.expectedKey = publicKey;
  }

  /** A new browser subscription on this service. */
  subscriber(): TestSubscriber {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const auth = randomBytes(16);
    const endpoint = `${this.origin}/push/${randomBytes(12).toString("hex")}`;
    const subscriber: TestSubscriber = {
      endpoint,
      ecdh,
      auth,
      subscription: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } },
    };
    this.subscribers.set(new URL(endpoint).pathname, subscriber);
    return subscriber;
  }

  /** Forgets what arrived so far (a test's start). */
  reset(): void {
    this.received.length = 0;
    this.arrivals.length = 0;
    this.deferred.length = 0;
  }

  /** The next requests are answered with these statuses, in order. */
  answer(...statuses: number[]): void {
    this.queued.push(...statuses);
  }

  messagesFor(subscriber: TestSubscriber): PushMessage[] {
    return this.received.filter((push) => push.endpoint === subscriber.endpoint).map((push) => push.message);
  }

  /** Waits until `count` accepted messages in all have arrived (or throws after `timeoutMs`). */
  async waitFor(count: number, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.arrivals.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} push messages, got ${this.arrivals.length}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 20);
      });
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: http.IncomingMessage, body: Buffer): Promise<number> {
    const receivedAt = Date.now();
    const path = new URL(request.url ?? "/", this.origin).pathname;
    const subscriber = this.subscribers.get(path);
    const status = this.queued.shift() ?? 201;
    this.answered.push(status);
    if (!subscriber) return 404;
    if (this.deferChecks && status >= 200 && status < 300) {
      // A benchmark's push service answers at once and checks later (`checkDeferred`), so its own
      // work does not slow the client that shares its process.
      this.arrivals.push(receivedAt);
      this.deferred.push({ subscriber, headers: request.headers, body, receivedAt });
      for (const wake of this.waiters.splice(0)) wake();
      return status;
    }
    const ok = await this.check(subscriber, request.headers, body, receivedAt, status >= 200 && status < 300);
    return ok ? status : 400;
  }

  /** Checks and decrypts what arrived while checks were deferred; problems go to `problems`. */
  async checkDeferred(): Promise<void> {
    for (const { subscriber, headers, body, receivedAt } of this.deferred.splice(0)) {
      await this.check(subscriber, headers, body, receivedAt, true);
    }
  }

  private async check(
    subscriber: TestSubscriber,
    headers: http.IncomingHttpHeaders,
    body: Buffer,
    receivedAt: number,
    accepted: boolean,
  ): Promise<boolean> {
    try {
      await this.verifyVapid(headers.authorization, subscriber.endpoint);
      if (headers["content-encoding"] !== "aes128gcm") throw new Error("not aes128gcm");
      if (!headers.ttl) throw new Error("no TTL");
      if (!accepted) return true;
      const plain = decrypt(body, { version: "aes128gcm", privateKey: subscriber.ecdh, authSecret: subscriber.auth });
      this.received.push({
        endpoint: subscriber.endpoint,
        message: JSON.parse(plain.toString("utf8")) as PushMessage,
        receivedAt,
        headers,
      });
      if (!this.deferChecks) this.arrivals.push(receivedAt);
      for (const wake of this.waiters.splice(0)) wake();
      return true;
    } catch (error) {
      this.problems.push(error instanceof Error ? error.message : String(error));
      return false;
    }
  }

  /** `Authorization: vapid t=<JWT>, k=<public key>` (RFC 8292). */
  private async verifyVapid(header: string | undefined, endpoint: string): Promise<void> {
    const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
    if (!match) throw new Error(`no VAPID authorization: ${header}`);
    const [, token, key] = match as unknown as [string, string, string];
    if (this.expectedKey !== undefined && key !== this.expectedKey) throw new Error("signed with another key");
    const raw = Buffer.from(key, "base64url");
    if (raw.length !== 65 || raw[0] !== 4) throw new Error("k is not a P-256 public key");
    const publicKey = await importJWK(
      { kty: "EC", crv: "P-256", x: raw.subarray(1, 33).toString("base64url"), y: raw.subarray(33).toString("base64url") },
      "ES256",
    );
    const { payload } = await jwtVerify(token, publicKey, { algorithms: ["ES256"], audience: new URL(endpoint).origin });
    const now = Math.floor(Date.now() / 1000);
    if (typeof payload.exp !== "number" || payload.exp <= now || payload.exp > now + 24 * 3600) throw new Error("bad exp");
    if (typeof payload.sub !== "string" || !/^(mailto:|https:)/.test(payload.sub)) throw new Error("bad sub");
  }
}
