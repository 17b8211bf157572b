import { spawn } from "node:child_process";
import http from "node:http";
import { root, serverNodeArgs } from "./lib";

/**
 * A lean HTTP client for the load loops: node:http over kept-alive connections, one socket per
 * concurrent client, the body drained but not parsed. Cheaper per request than global fetch,
 * which matters when the load generator shares two cores with the server.
 */
export class HttpClient {
  private readonly agent: http.Agent;
  private readonly base: URL;

  constructor(baseUrl: string, connections: number) {
    this.base = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  }

  /** Status and raw body. */
  request(
    method: string,
    path: string,
    headers: Record<string, string | number> = {},
    body?: Buffer,
  ): Promise<{ status: number; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        { agent: this.agent, host: this.base.hostname, port: this.base.port, method, path, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }

  /** True when the answer is 200; the body is read and dropped. */
  ok(path: string, headers: Record<string, string> = {}): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const req = http.get({ agent: this.agent, host: this.base.hostname, port: this.base.port, path, headers }, (res) => {
        res.on("data", () => {});
        res.on("end", () => resolve(res.statusCode === 200));
        res.on("error", reject);
      });
      req.on("error", reject);
    });
  }

  async json<T>(method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<T> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const response = await this.request(
      method,
      path,
      payload ? { ...headers, "content-type": "application/json", "content-length": payload.length } : headers,
      payload,
    );
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${response.body.toString("utf8").slice(0, 300)}`);
    return JSON.parse(response.body.toString("utf8")) as T;
  }

  close(): void {
    this.agent.destroy();
  }
}

/**
 * A bare Fastify 5 app in its own process, like the real server: `/` answers a small JSON object;
 * with `payloadFile`, `/page` answers that JSON document (parsed once, serialized per request)
 * and `/page-bytes` its bytes as read, to tell the cost of the payload's size from the cost of
 * the route's work. It gets the server's node options too (`BENCH_SERVER_NODE_ARGS`, e.g. to profile it).
 */
export async function startBareFastify(payloadFile?: string): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const source = `
    import fs from "node:fs";
    import Fastify from "fastify";
    const app = Fastify({ logger: false });
    app.get("/", async () => ({ ok: true, name: "memory-box", items: [1, 2, 3] }));
    if (process.env.BARE_PAYLOAD) {
      const bytes = fs.readFileSync(process.env.BARE_PAYLOAD);
      const page = JSON.parse(bytes.toString("utf8"));
      app.get("/page", async () => page);
      app.get("/page-bytes", async (request, reply) => reply.type("application/json; charset=utf-8").send(bytes));
    }
    await app.listen({ host: "127.0.0.1", port: 0 });
    process.once("SIGTERM", () => app.close().then(() => process.exit(0)));
    process.stdout.write(app.server.address().port + "\\n");
  `;
  const env = { ...process.env, ...(payloadFile ? { BARE_PAYLOAD: payloadFile } : {}) };
  const child = spawn("node", [...serverNodeArgs(), "--input-type=module", "-e", source], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(Number(out.trim()));
    });
    child.once("exit", () => reject(new Error("the bare Fastify server did not start")));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      child.kill("SIGTERM");
      if (child.exitCode === null) await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}
