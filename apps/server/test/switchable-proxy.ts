import net from "node:net";

/** What the proxy does with a connection: pass it on, hold it without a word, or refuse it. */
export type ProxyMode = "up" | "hang" | "down";

export interface SwitchableProxy {
  port: number;
  /** The target's URL with the proxy's port in its place. */
  url: string;
  /** Switches the mode; connections already open are cut, as an outage cuts them. */
  set(mode: ProxyMode): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP proxy on loopback in front of a server (a mail server, for the outbox's tests) that a test
 * takes down and brings back on the same port: `down` refuses connections (nothing listens),
 * `hang` accepts them and never answers (a server that stopped responding), `up` passes them on.
 */
export async function switchableProxy(target: string): Promise<SwitchableProxy> {
  const targetUrl = new URL(target);
  const sockets = new Set<net.Socket>();
  let mode: ProxyMode = "up";
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    if (mode === "hang") return;
    const upstream = net.connect(Number(targetUrl.port), targetUrl.hostname);
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    client.pipe(upstream).pipe(client);
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const cut = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  const url = new URL(target);
  url.port = String(port);
  return {
    port,
    url: url.toString().replace(/\/$/, ""),
    set: async (next) => {
      cut();
      if (next === "down" && server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
      if (next !== "down" && !server.listening) await listen(port);
      mode = next;
    },
    close: async () => {
      cut();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
