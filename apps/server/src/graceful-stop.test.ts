import { once } from "node:events";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startServerProcess, type ServerProcess } from "../test/server-process";
import { createTestApp } from "../test/test-app";
import { stopGracefully } from "./lib/graceful-stop";

// Issue #37, a graceful stop: the real server process (src/main.ts), told SIGTERM while requests
// are under way, finishes them, takes no new one and exits; and the stop cuts a stalled client when
// its grace (10 s in main.ts) runs out.

/** A raw HTTP request whose body is sent by the caller, bit by bit; resolves with what came back, or "cut". */
function slowRequest(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  let answer = "";
  socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
  const ended = new Promise<string>((resolve) => {
    socket.on("close", () => resolve(answer === "" ? "cut" : answer));
    socket.on("error", () => undefined);
  });
  const body = JSON.stringify({ email: "someone@example.org", password: "a long enough passphrase" });
  socket.write(
    `POST /auth/v1/signup HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
  );
  socket.write(body.slice(0, 10));
  return { rest: () => socket.write(body.slice(10)), ended };
}

describe("a graceful stop of the server process", () => {
  let running: ServerProcess | undefined;
  afterEach(async () => {
    await running?.remove();
    running = undefined;
  });

  it("finishes a request under way, refuses new ones, and exits cleanly", { timeout: 90_000 }, async () => {
    const server = await startServerProcess();
    running = server;
    const request = slowRequest(server.port);
    await new Promise((resolve) => setTimeout(resolve, 200));

    const exited = once(server.child, "exit");
    server.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    // A new connection is not taken once the stop began.
    const refused = await fetch(`http://127.0.0.1:${server.port}/api/health`).then(
      (response) => response.status,
      () => "refused",
    );
    expect(refused === "refused" || refused === 503).toBe(true);

    // The request under way gets its answer (the sign-up's, not a cut connection).
    request.rest();
    expect(await request.ended).toMatch(/^HTTP\/1\.1 (2|4)\d\d /);
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
    expect(server.output()).toContain("shutting down");
  });

  it("cuts a stalled request when the grace runs out, and still closes", { timeout: 60_000 }, async () => {
    // The server's own stop (stopGracefully, as main.ts calls it with its 10 s) with a shorter grace,
    // in this process: the same cut, without ten seconds of waiting.
    const lines: string[] = [];
    const testApp = await createTestApp("sqlite", { logStream: { write: (line: string) => void lines.push(line) } });
    try {
      const address = await testApp.app.listen({ port: 0, host: "127.0.0.1" });
      const stalled = slowRequest(Number(new URL(address).port));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const stopAt = Date.now();
      await stopGracefully(testApp.app, 500);
      const took = Date.now() - stopAt;
      expect(await stalled.ended).toBe("cut");
      expect(took).toBeGreaterThanOrEqual(450);
      expect(took).toBeLessThan(5_000);
      expect(lines.join("")).toContain("their connections are cut");
    } finally {
      await testApp.close();
    }
  });
});
