import type { IncomingMessage, ServerResponse } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { generate } from "selfsigned";

// An https server on 127.0.0.1 for tests that fetch from one, with a certificate generated for the
// run (for localhost, 127.0.0.1 and ::1); the test trusts `certificate` as its authority.

export interface TlsTestServer {
  port: number;
  certificate: string;
  /** `https://{host}:{port}{path}` */
  url(path: string, host?: string): string;
  close(): Promise<void>;
}

export async function startTlsTestServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<TlsTestServer> {
  const pems = await generate([{ name: "commonName", value: "localhost" }], {
    keySize: 2048,
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 2, value: "localhost" },
          { type: 7, ip: "127.0.0.1" },
          { type: 7, ip: "::1" },
        ],
      },
    ],
  });
  const server = https.createServer({ key: pems.private, cert: pems.cert }, handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    certificate: pems.cert,
    url: (path, host = "127.0.0.1") => `https://${host}:${port}${path}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
