import net from "node:net";

/** Where a connection is cut: before its COMMIT reaches PostgreSQL, or once PostgreSQL committed it. */
export type CommitCut = "before" | "after";

export interface CommitCuttingProxy {
  /** The target's URL with the proxy's port in its place. */
  url: string;
  /**
   * The next connection that sends `marker` (in a query or its parameters) is cut at its next
   * `COMMIT`: `before`, the COMMIT never reaches PostgreSQL, which rolls the transaction back when
   * the connection drops; `after`, PostgreSQL committed it, and its answer is held back as the
   * connection is cut, so the client never learns. Resolves once cut, with what PostgreSQL answered
   * the COMMIT (its command tag, `COMMIT`), or `not sent`.
   */
  cutAtCommit(marker: string, when: CommitCut): Promise<string>;
  close(): Promise<void>;
}

interface PendingCut {
  marker: Buffer;
  when: CommitCut;
  resolve: (answer: string) => void;
}

const simpleQuery = 0x51; // 'Q'
const commandComplete = 0x43; // 'C'
const errorResponse = 0x45; // 'E'

/**
 * A TCP proxy on loopback in front of PostgreSQL that reads the frontend protocol's messages to cut
 * one connection at the moment a plain outage proxy cannot hit: around a transaction's COMMIT (the
 * driver sends it as a simple query). Everything else passes through as it is.
 */
export async function commitCuttingProxy(target: string): Promise<CommitCuttingProxy> {
  const targetUrl = new URL(target);
  const sockets = new Set<net.Socket>();
  let pending: PendingCut | undefined;

  const server = net.createServer((client) => {
    const upstream = net.connect(Number(targetUrl.port), targetUrl.hostname);
    sockets.add(client).add(upstream);
    let fromClient = Buffer.alloc(0);
    let started = false;
    /** The cut this connection was chosen for, once it sent the marker. */
    let chosen: PendingCut | undefined;
    /** Set once the COMMIT went up in `after` mode: what PostgreSQL answers is held back. */
    let heldAnswer: Buffer | undefined;

    const cut = (answer: string) => {
      client.destroy();
      upstream.destroy();
      chosen?.resolve(answer);
      chosen = undefined;
    };

    client.on("data", (chunk: Buffer) => {
      fromClient = Buffer.concat([fromClient, chunk]);
      const passed: Buffer[] = [];
      for (;;) {
        // The startup message has no type byte; every later one has.
        const header = started ? 5 : 4;
        if (fromClient.length < header) break;
        const length = started ? 1 + fromClient.readInt32BE(1) : fromClient.readInt32BE(0);
        if (fromClient.length < length) break;
        const message = fromClient.subarray(0, length);
        fromClient = fromClient.subarray(length);
        if (!started) {
          started = true;
          passed.push(message);
          continue;
        }
        if (!chosen && pending && message.includes(pending.marker)) {
          chosen = pending;
          pending = undefined;
        }
        if (chosen && message[0] === simpleQuery && message.subarray(5, -1).toString().trim().toLowerCase() === "commit") {
          upstream.write(Buffer.concat(passed));
          if (chosen.when === "before") return cut("not sent");
          upstream.write(message);
          heldAnswer = Buffer.alloc(0);
          return;
        }
        passed.push(message);
      }
      if (passed.length > 0) upstream.write(Buffer.concat(passed));
    });

    upstream.on("data", (chunk: Buffer) => {
      if (heldAnswer === undefined) {
        client.write(chunk);
        return;
      }
      heldAnswer = Buffer.concat([heldAnswer, chunk]);
      for (let offset = 0; heldAnswer.length - offset >= 5;) {
        const length = 1 + heldAnswer.readInt32BE(offset + 1);
        if (heldAnswer.length - offset < length) break;
        const type = heldAnswer[offset];
        if (type === commandComplete) return cut(heldAnswer.subarray(offset + 5, offset + length - 1).toString());
        if (type === errorResponse) return cut("error");
        offset += length;
      }
    });

    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => {
      upstream.destroy();
      sockets.delete(client);
    });
    upstream.on("close", () => {
      client.destroy();
      sockets.delete(upstream);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    cutAtCommit: (marker, when) =>
      new Promise<string>((resolve) => {
        pending = { marker: Buffer.from(marker, "utf8"), when, resolve };
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
