import net from "node:net";

export interface CuttingProxy {
  port: number;
  /** Bytes the client sent through the proxy, over every connection. */
  bytesUp: number;
  cuts: number;
  close(): Promise<void>;
}

/**
 * A TCP proxy on loopback in front of the server that drops both sides of the connection once
 * `cutAfter` bytes went up through it (once), as a lost network does, and counts what went up.
 */
export async function cuttingProxy(target: URL, cutAfter: number): Promise<CuttingProxy> {
  const sockets = new Set<net.Socket>();
  const state = { bytesUp: 0, cuts: 0 };
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    client.on("data", (chunk: Buffer) => {
      state.bytesUp += chunk.length;
      if (state.cuts === 0 && state.bytesUp >= cutAfter) {
        state.cuts += 1;
        client.destroy();
        upstream.destroy();
        return;
      }
      if (!upstream.write(chunk)) {
        client.pause();
        upstream.once("drain", () => client.resume());
      }
    });
    upstream.pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    get bytesUp() {
      return state.bytesUp;
    },
    get cuts() {
      return state.cuts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
