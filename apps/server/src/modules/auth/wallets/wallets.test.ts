import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import nacl from "tweetnacl";
import bs58 from "bs58";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthTestServer,
  confirmedMember,
  getUser,
  password,
  startAuthServer,
  stringMatching,
} from "../../../../test/auth-fixtures";
import type { CapturedMail } from "../../../../test/smtp-test-server";
import { testEngines } from "../../../../test/test-database";

// Signing in with a wallet (POST /token?grant_type=web3) and connecting one, with wallets made from
// generated keys: Ethereum accounts on secp256k1 (EIP-191 personal_sign over an EIP-4361 message, as
// wallets sign) and Solana keypairs from tweetnacl. Every refusal, and that refusals write nothing.

const site = "memories.example.org";
const uri = `https://${site}/auth`;

interface MessageFields {
  domain?: string;
  uri?: string;
  issuedAt?: Date;
  expirationTime?: Date;
  notBefore?: Date;
  nonce?: string;
}

let nonces = 0;
const freshNonce = () => `n${Date.now().toString(36)}${(nonces++).toString(36)}abcdefgh`;

/** An Ethereum account: its EIP-55 checksummed address, and EIP-191 `personal_sign` as wallets do it. */
interface EthereumWallet {
  address: string;
  signMessage(message: string): `0x${string}`;
}

function ethereumWallet(secretKey: Uint8Array): EthereumWallet {
  const publicKey = secp256k1.getPublicKey(secretKey, false);
  const lower = bytesToHex(keccak_256(publicKey.subarray(1)).subarray(12));
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  const address = `0x${[...lower].map((digit, index) => (Number.parseInt(hash[index]!, 16) >= 8 ? digit.toUpperCase() : digit)).join("")}`;
  return {
    address,
    signMessage(message) {
      const text = utf8ToBytes(message);
      const digest = keccak_256(concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${text.length}`), text));
      // recovery bit ‖ r ‖ s; wallets write r ‖ s ‖ (27 + recovery bit).
      const signature = secp256k1.sign(digest, secretKey, { prehash: false, format: "recovered" });
      return `0x${bytesToHex(signature.subarray(1))}${(27 + signature[0]!).toString(16)}` as const;
    },
  };
}

/** A Sign-In with Ethereum (EIP-4361) message, as wallets write it. */
function ethereumMessage(wallet: EthereumWallet, fields: MessageFields = {}): string {
  return [
    `${fields.domain ?? site} wants you to sign in with your Ethereum account:`,
    wallet.address,
    "",
    "Sign in to Memory Box",
    "",
    `URI: ${fields.uri ?? uri}`,
    "Version: 1",
    "Chain ID: 1",
    `Nonce: ${fields.nonce ?? freshNonce()}`,
    `Issued At: ${(fields.issuedAt ?? new Date()).toISOString()}`,
    ...(fields.expirationTime ? [`Expiration Time: ${fields.expirationTime.toISOString()}`] : []),
    ...(fields.notBefore ? [`Not Before: ${fields.notBefore.toISOString()}`] : []),
  ].join("\n");
}

async function ethereumGrant(wallet: EthereumWallet, fields: MessageFields = {}, signer = wallet) {
  const message = ethereumMessage(wallet, fields);
  return { chain: "ethereum", message, signature: signer.signMessage(message) };
}

/** A Sign-In with Solana message, as wallets write it (the EIP-4361 layout with the Solana header). */
function solanaMessage(address: string, fields: MessageFields = {}): string {
  return [
    `${fields.domain ?? site} wants you to sign in with your Solana account:`,
    address,
    "",
    "Sign in to Memory Box",
    "",
    `URI: ${fields.uri ?? uri}`,
    "Version: 1",
    "Chain ID: solana:mainnet",
    `Nonce: ${fields.nonce ?? freshNonce()}`,
    `Issued At: ${(fields.issuedAt ?? new Date()).toISOString()}`,
  ].join("\n");
}

function solanaGrant(keys: nacl.SignKeyPair, fields: MessageFields = {}, signer = keys) {
  const message = solanaMessage(bs58.encode(keys.publicKey), fields);
  const signature = nacl.sign.detached(new TextEncoder().encode(message), signer.secretKey);
  return { chain: "solana", message, signature: Buffer.from(signature).toString("base64") };
}

const newWallet = () => ethereumWallet(secp256k1.utils.randomSecretKey());

describe("The tests' Ethereum wallet", () => {
  it("writes what a wallet library writes for the same key and message", () => {
    const wallet = ethereumWallet(Uint8Array.from({ length: 32 }, (_, index) => (index === 31 ? 1 : 0)));
    const message = ethereumMessage(wallet, {
      nonce: "abcdefgh1",
      issuedAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)),
      expirationTime: new Date(Date.UTC(2026, 0, 3)),
      notBefore: new Date(Date.UTC(2026, 0, 2)),
    });

    expect(wallet.address).toBe("0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf");
    expect(message).toBe(
      "memories.example.org wants you to sign in with your Ethereum account:\n0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf\n\nSign in to Memory Box\n\nURI: https://memories.example.org/auth\nVersion: 1\nChain ID: 1\nNonce: abcdefgh1\nIssued At: 2026-01-02T03:04:05.006Z\nExpiration Time: 2026-01-03T00:00:00.000Z\nNot Before: 2026-01-02T00:00:00.000Z",
    );
    expect(wallet.signMessage(message)).toBe(
      "0x625e2c026a01706dda80adfb93a3af72bf50fe1c623410f84ef956e52f70e1bd64f03745b531cb56977633e42863bad91a7641e9abf188925ee4d6dad8c6adae1c",
    );
    expect(wallet.signMessage("Sign in ✓ ünïcode")).toBe(
      "0xb11104f01eff76bffa366ac74345b3e84ce6a32a291fe641f51fbe585ae3346a574e33c619b2bd8eff86287a8c51cb41babe6754322262ff25c7120ab2d50dbe1b",
    );
  });
});

describe.each(testEngines())("Web3 sign-in on %s", (engine) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(engine, {
      env: {
        AUTH_WEB3_ETHEREUM_ENABLED: "true",
        AUTH_WEB3_SOLANA_ENABLED: "true",
        AUTH_REDIRECT_URLS: `https://${site}/**`,
      },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const token = (body: object, accessToken?: string) =>
    server.app.inject({
      method: "POST",
      url: "/auth/v1/token?grant_type=web3",
      headers: {
        "x-supabase-api-version": "2024-01-01",
        ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
      },
      payload: body,
    });
  const link = (body: object, accessToken: string) => token({ ...body, link_identity: true }, accessToken);

  /** What a refused request could have written: identities, sessions, used messages. */
  async function rowCounts() {
    const count = async (table: "identities" | "sessions" | "used_id_tokens") =>
      Number(
        (
          await server.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { identities: await count("identities"), sessions: await count("sessions"), used: await count("used_id_tokens") };
  }

  async function expectRefused(response: Awaited<ReturnType<typeof token>>, status: number, code: string, message?: RegExp) {
    expect(response.statusCode, response.body).toBe(status);
    const body = response.json<{ code: string; message: string }>();
    expect(body.code).toBe(code);
    if (message) expect(body.message).toMatch(message);
  }

  /** A member with an Ethereum wallet connected from the account area. */
  /** The member disconnects their wallet from the account area (`DELETE /user/identities/{id}`). */
  async function disconnectWallet(accessToken: string) {
    const user = (await getUser(server, accessToken)).json<{ identities: { provider: string; identity_id: string }[] }>();
    const identity = user.identities.find((candidate) => candidate.provider === "web3")!;
    const unlinked = await server.app.inject({
      method: "DELETE",
      url: `/auth/v1/user/identities/${identity.identity_id}`,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(unlinked.statusCode, unlinked.body).toBe(200);
  }

  async function memberWithWallet() {
    const member = await confirmedMember(server);
    const wallet = newWallet();
    const linked = await link(await ethereumGrant(wallet), member.session.access_token);
    expect(linked.statusCode, linked.body).toBe(200);
    return { member, wallet };
  }

  it("GET /settings says which chains are on", async () => {
    const settings = await server.app.inject({ method: "GET", url: "/auth/v1/settings" });
    expect(settings.json()).toMatchObject({ external: { web3_ethereum: true, web3_solana: true } });
  });

  describe("connecting a wallet", () => {
    it("links an Ethereum wallet to the signed-in member as a web3 identity", async () => {
      const member = await confirmedMember(server);
      const wallet = newWallet();
      const linked = await link(await ethereumGrant(wallet), member.session.access_token);
      expect(linked.statusCode, linked.body).toBe(200);
      expect(linked.json()).toMatchObject({ user: { id: member.userId } });

      const user = (await getUser(server, member.session.access_token)).json<{
        identities: { provider: string; id: string; identity_id: string; identity_data: Record<string, unknown> }[];
        app_metadata: { providers: string[] };
      }>();
      const subject = `web3:ethereum:${wallet.address}`;
      expect(user.identities.map((identity) => identity.provider)).toEqual(["email", "web3"]);
      expect(user.identities[1]).toMatchObject({
        id: subject,
        identity_data: { sub: subject, address: wallet.address, chain: "ethereum", network: "1", domain: site },
      });
      expect(user.app_metadata.providers).toEqual(["email", "web3"]);
    });

    it("links a Solana wallet (ed25519, base58 address)", async () => {
      const member = await confirmedMember(server);
      const keys = nacl.sign.keyPair();
      const linked = await link(solanaGrant(keys), member.session.access_token);
      expect(linked.statusCode, linked.body).toBe(200);
      const user = (await getUser(server, member.session.access_token)).json<{ identities: { id: string }[] }>();
      expect(user.identities[1]?.id).toBe(`web3:solana:${bs58.encode(keys.publicKey)}`);
    });

    it("refuses signed out, with a forged signature, and a wallet another member connected; writes nothing", async () => {
      const { wallet } = await memberWithWallet();
      const other = await confirmedMember(server);
      const before = await rowCounts();

      const signedOut = await token({ ...(await ethereumGrant(newWallet())), link_identity: true });
      expect(signedOut.statusCode).toBe(401);
      const forged = await link(await ethereumGrant(newWallet(), {}, newWallet()), other.session.access_token);
      await expectRefused(forged, 400, "invalid_grant", /Signature does not match/);
      const taken = await link(await ethereumGrant(wallet), other.session.access_token);
      await expectRefused(taken, 422, "identity_already_exists", /another user/);

      expect(await rowCounts()).toEqual(before);
    });
  });

  describe("notices of a connected or disconnected wallet", () => {
    /** The wallet as the notice names it: shortened, as wallets show an address. */
    const shortened = (address: string) => `${address.slice(0, address.startsWith("0x") ? 6 : 4)}…${address.slice(-4)}`;

    function expectNoticeOnly(mail: CapturedMail, address: string) {
      expect(mail.text).not.toMatch(/https?:\/\//);
      expect(mail.html).not.toMatch(/<a\s|https?:\/\//);
      expect(mail.text).not.toContain(address);
    }

    it("tells the member's address which Ethereum wallet was connected, and when it is disconnected", async () => {
      const { member, wallet } = await memberWithWallet();
      const linked = await server.smtp.waitForMail(member.email, { subject: /wallet was connected/ });
      expect(linked.subject).toBe("An Ethereum wallet was connected to your Memory Box account");
      expect(linked.text).toContain(
        `The Ethereum wallet ${shortened(wallet.address)} was connected to the Memory Box account for ${member.email} on `,
      );
      expect(linked.text).toContain("It can now sign in to this account.");
      expectNoticeOnly(linked, wallet.address);

      await disconnectWallet(member.session.access_token);
      const notice = await server.smtp.waitForMail(member.email, { subject: /disconnected/ });
      expect(notice.subject).toBe("An Ethereum wallet was disconnected from your Memory Box account");
      expect(notice.text).toContain(
        `The Ethereum wallet ${shortened(wallet.address)} was disconnected from the Memory Box account for ${member.email} on `,
      );
      expectNoticeOnly(notice, wallet.address);
    });

    it("names a Solana wallet by its base58 address", async () => {
      const member = await confirmedMember(server);
      const keys = nacl.sign.keyPair();
      const address = bs58.encode(keys.publicKey);
      expect((await link(solanaGrant(keys), member.session.access_token)).statusCode).toBe(200);
      const notice = await server.smtp.waitForMail(member.email, { subject: /wallet was connected/ });
      expect(notice.subject).toBe("A Solana wallet was connected to your Memory Box account");
      expect(notice.text).toContain(`The Solana wallet ${shortened(address)} was connected to the Memory Box account for`);
      expectNoticeOnly(notice, address);
    });

    it("sends nothing for a refused connection (a forged signature, a wallet connected elsewhere), nor for a sign-in", async () => {
      const { member: owner, wallet } = await memberWithWallet();
      await server.smtp.waitForMail(owner.email, { subject: /wallet was connected/ });
      const other = await confirmedMember(server);
      const before = server.smtp.messages.length;

      const forged = await link(await ethereumGrant(newWallet(), {}, newWallet()), other.session.access_token);
      expect(forged.statusCode).toBe(400);
      const taken = await link(await ethereumGrant(wallet), other.session.access_token);
      expect(taken.statusCode).toBe(422);
      const again = await link(await ethereumGrant(wallet), owner.session.access_token);
      expect(again.json()).toMatchObject({ code: "identity_already_exists", message: "Identity is already linked" });
      expect((await token(await ethereumGrant(wallet))).statusCode).toBe(200);

      // A notice would have been sent by now: the next mail to each address is this connection's.
      const next = newWallet();
      expect((await link(await ethereumGrant(next), other.session.access_token)).statusCode).toBe(200);
      await server.smtp.waitForMail(other.email, { subject: /wallet was connected/ });
      expect((await link(await ethereumGrant(newWallet()), owner.session.access_token)).statusCode).toBe(200);
      await server.smtp.waitForMail(owner.email, { subject: /wallet was connected/ });
      const sent = server.smtp.messages
        .slice(before)
        .filter((mail) => mail.to.includes(owner.email) || mail.to.includes(other.email));
      expect(sent.map((mail) => [mail.to, mail.subject])).toEqual([
        [[other.email], "An Ethereum wallet was connected to your Memory Box account"],
        [[owner.email], "An Ethereum wallet was connected to your Memory Box account"],
      ]);
      expect(sent[0]!.text).toContain(shortened(next.address));
    });
  });

  describe("signing in with a connected wallet", () => {
    it("signs the member in through auth-js signInWithWeb3 with a session whose method is web3", async () => {
      const { member, wallet } = await memberWithWallet();
      const client = server.client();
      const grant = await ethereumGrant(wallet);
      const { data, error } = await client.auth.signInWithWeb3({
        chain: "ethereum",
        message: grant.message,
        signature: grant.signature,
      });
      expect(error).toBeNull();
      expect(data.user?.id).toBe(member.userId);
      const claims = await client.auth.getClaims();
      expect(claims.data?.claims.amr).toEqual([expect.objectContaining({ method: "web3" })]);
    });

    it("signs a Solana wallet's member in", async () => {
      const member = await confirmedMember(server);
      const keys = nacl.sign.keyPair();
      expect((await link(solanaGrant(keys), member.session.access_token)).statusCode).toBe(200);
      const signedIn = await token(solanaGrant(keys));
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      expect(signedIn.json()).toMatchObject({ user: { id: member.userId } });
      // base64 without padding and with the URL alphabet, as Supabase Auth also takes it.
      const grant = solanaGrant(keys);
      const unpadded = { ...grant, signature: grant.signature.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_") };
      expect((await token(unpadded)).statusCode).toBe(200);
    });

    it("refuses a wallet no member connected, in Supabase Auth's shape, and writes nothing", async () => {
      const before = await rowCounts();
      const response = await token(await ethereumGrant(newWallet()));
      await expectRefused(response, 422, "signup_disabled", /No member has connected this wallet/);
      const legacy = await server.app.inject({
        method: "POST",
        url: "/auth/v1/token?grant_type=web3",
        payload: await ethereumGrant(newWallet()),
      });
      expect(legacy.json()).toMatchObject({ code: 422, error_code: "signup_disabled" });
      expect(await rowCounts()).toEqual(before);
    });

    it("refuses the wallet of a member whose invitation was revoked; writes nothing", async () => {
      const { member, wallet } = await memberWithWallet();
      await server.invitations.revoke(member.email, "test");
      const before = await rowCounts();
      await expectRefused(await token(await ethereumGrant(wallet)), 403, "email_not_invited");
      expect(await rowCounts()).toEqual(before);
    });

    it("no longer signs in once the member disconnected the wallet", async () => {
      const { member, wallet } = await memberWithWallet();
      await disconnectWallet(member.session.access_token);
      await expectRefused(await token(await ethereumGrant(wallet)), 422, "signup_disabled");
    });
  });

  describe("refusals of the signed message", () => {
    let wallet: EthereumWallet;
    let solanaKeys: nacl.SignKeyPair;
    beforeAll(async () => {
      ({ wallet } = await memberWithWallet());
      const member = await confirmedMember(server);
      solanaKeys = nacl.sign.keyPair();
      expect((await link(solanaGrant(solanaKeys), member.session.access_token)).statusCode).toBe(200);
    });

    it("takes a message once: the same message, or another with the same nonce, is refused", async () => {
      const grant = await ethereumGrant(wallet);
      expect((await token(grant)).statusCode).toBe(200);
      const before = await rowCounts();
      await expectRefused(await token(grant), 400, "invalid_grant", /already used/);
      const sameNonce = await ethereumGrant(wallet, { nonce: /Nonce: (\S+)/.exec(grant.message)![1]! });
      expect(sameNonce.message).not.toBe(grant.message);
      await expectRefused(await token(sameNonce), 400, "invalid_grant", /already used/);
      expect(await rowCounts()).toEqual(before);

      const solana = solanaGrant(solanaKeys);
      expect((await token(solana)).statusCode).toBe(200);
      await expectRefused(await token(solana), 400, "invalid_grant", /already used/);
    });

    it("refuses a stale or future issued-at, an expired message and one not valid yet", async () => {
      const minutes = (n: number) => new Date(Date.now() + n * 60_000);
      const cases: [MessageFields, RegExp][] = [
        [{ issuedAt: minutes(-11) }, /Ethereum message was issued too long ago/],
        [{ issuedAt: minutes(11) }, /Ethereum message was issued too far in the future/],
        [{ issuedAt: minutes(-2), expirationTime: minutes(-1) }, /Signed Ethereum message is expired/],
        [{ notBefore: minutes(2), expirationTime: minutes(5) }, /Signed Ethereum message becomes valid in the future/],
      ];
      for (const [fields, message] of cases)
        await expectRefused(await token(await ethereumGrant(wallet, fields)), 400, "invalid_grant", message);
      await expectRefused(
        await token(solanaGrant(solanaKeys, { issuedAt: minutes(-11) })),
        400,
        "invalid_grant",
        /Solana message was issued too long ago/,
      );
      // The clock is the server's: a message fresh when signed is stale ten minutes later.
      const grant = await ethereumGrant(wallet);
      server.clock.advance(601);
      try {
        await expectRefused(await token(grant), 400, "invalid_grant", /issued too long ago/);
      } finally {
        server.clock.advance(-601);
      }
    });

    it("refuses a message for another site, a domain that is not its URI's, and a URI without https", async () => {
      await expectRefused(
        await token(await ethereumGrant(wallet, { domain: "evil.example.net", uri: "https://evil.example.net/" })),
        400,
        "invalid_grant",
        /URI which is not allowed on this server, message was signed for another app/,
      );
      await expectRefused(
        await token(await ethereumGrant(wallet, { domain: "evil.example.net" })),
        400,
        "invalid_grant",
        /Domain that does not match the one in URI/,
      );
      await expectRefused(
        await token(await ethereumGrant(wallet, { uri: `http://${site}/auth` })),
        400,
        "invalid_grant",
        /URI which does not use HTTPS/,
      );
      await expectRefused(
        await token(solanaGrant(solanaKeys, { domain: "evil.example.net", uri: "https://evil.example.net/" })),
        400,
        "invalid_grant",
        /Signed Solana message is using URI which is not allowed/,
      );
    });

    it("refuses a signature by another key, and a malformed one", async () => {
      await expectRefused(
        await token(await ethereumGrant(wallet, {}, newWallet())),
        400,
        "invalid_grant",
        /Signature does not match address in message/,
      );
      await expectRefused(
        await token(solanaGrant(solanaKeys, {}, nacl.sign.keyPair())),
        400,
        "invalid_grant",
        /Signature does not match address in message/,
      );
      const grant = await ethereumGrant(wallet);
      await expectRefused(await token({ ...grant, signature: "0x1234" }), 400, "validation_failed", /130 character-long/);
      await expectRefused(
        await token({ ...grant, signature: `0x${"f".repeat(130)}` }),
        400,
        "invalid_grant",
        /Signature does not match/,
      );
      await expectRefused(await token({ ...solanaGrant(solanaKeys), signature: "!".repeat(88) }), 400, "validation_failed");
    });

    it("refuses a wrong or unknown chain, and a message that is not a sign-in message", async () => {
      const ethereum = await ethereumGrant(wallet);
      await expectRefused(await token({ ...ethereum, chain: "bitcoin" }), 400, "web3_unsupported_chain");
      await expectRefused(await token({ ...ethereum, chain: undefined }), 400, "web3_unsupported_chain");
      const solana = solanaGrant(solanaKeys);
      await expectRefused(
        await token({ ...ethereum, chain: "solana", signature: solana.signature }),
        400,
        "validation_failed",
        /siws: message first line does not end in/,
      );
      await expectRefused(
        await token({ ...solana, chain: "ethereum", signature: ethereum.signature }),
        400,
        "validation_failed",
        /siwe:/,
      );
      const noVersion = ethereum.message.replace("Version: 1", "Version: 2");
      await expectRefused(
        await token({ ...ethereum, message: noVersion }),
        400,
        "validation_failed",
        /Version value is not supported/,
      );
      await expectRefused(await token({ ...ethereum, message: "too short" }), 400, "validation_failed", /message is too short/);
    });

    it("answers the refusal in Supabase Auth's OAuth shape too (error, error_description)", async () => {
      const response = await server.app.inject({
        method: "POST",
        url: "/auth/v1/token?grant_type=web3",
        payload: await ethereumGrant(wallet, {}, newWallet()),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        error: "invalid_grant",
        error_description: "Signature does not match address in message",
      });
    });
  });
});

describe.each(testEngines())("Web3 messages on a localhost instance (%s)", (engine) => {
  // A development or self-hosted instance at http://localhost:5173: the message's domain and URI
  // must name this instance as they must anywhere else.
  const local = "localhost:5173";
  const localUri = `http://${local}/auth`;
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer(engine, {
      env: {
        AUTH_WEB3_ETHEREUM_ENABLED: "true",
        AUTH_WEB3_SOLANA_ENABLED: "true",
        AUTH_SITE_URL: `http://${local}`,
        AUTH_REDIRECT_URLS: `http://${local}/**`,
      },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const send = (payload: object, accessToken?: string) =>
    server.app.inject({
      method: "POST",
      url: "/auth/v1/token?grant_type=web3",
      headers: {
        "x-supabase-api-version": "2024-01-01",
        ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
      },
      payload,
    });

  it("connects and signs in with a message naming this instance", async () => {
    const member = await confirmedMember(server);
    const wallet = newWallet();
    const linked = await send(
      { ...(await ethereumGrant(wallet, { domain: local, uri: localUri })), link_identity: true },
      member.session.access_token,
    );
    expect(linked.statusCode, linked.body).toBe(200);
    const signedIn = await send(await ethereumGrant(wallet, { domain: local, uri: localUri }));
    expect(signedIn.statusCode, signedIn.body).toBe(200);
  });

  it("refuses a message naming another domain, however its URI points here, for sign-in and for connecting", async () => {
    const member = await confirmedMember(server);
    const wallet = newWallet();
    const solanaKeys = nacl.sign.keyPair();
    const identitiesBefore = Number(
      (
        await server.db
          .selectFrom("identities")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const attempts = [
      { ...(await ethereumGrant(wallet, { domain: "evil.example.net", uri: localUri })), link_identity: true },
      { ...(await ethereumGrant(wallet, { domain: "localhost:6666", uri: localUri })), link_identity: true },
      { ...(await ethereumGrant(wallet, { domain: "localhost", uri: localUri })), link_identity: true },
      { ...solanaGrant(solanaKeys, { domain: "evil.example.net", uri: localUri }), link_identity: true },
      await ethereumGrant(wallet, { domain: "evil.example.net", uri: localUri }),
    ];
    for (const attempt of attempts) {
      const response = await send(attempt, member.session.access_token);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: "invalid_grant", message: stringMatching(/Domain that does not match/) });
    }
    // A message for another site on localhost (its URI another port) is refused by the URI, as before.
    const otherPort = await send(await ethereumGrant(wallet, { domain: "localhost:6666", uri: "http://localhost:6666/" }));
    expect(otherPort.json()).toMatchObject({ code: "invalid_grant", message: stringMatching(/not allowed on this server/) });
    const identitiesAfter = Number(
      (
        await server.db
          .selectFrom("identities")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(identitiesAfter).toBe(identitiesBefore);
  });
});

describe("Web3 sign-in with one chain on", () => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer(testEngines()[0]!, {
      env: { AUTH_WEB3_ETHEREUM_ENABLED: "true", AUTH_REDIRECT_URLS: `https://${site}/**` },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("refuses the other chain as disabled", async () => {
    const response = await server.app.inject({
      method: "POST",
      url: "/auth/v1/token?grant_type=web3",
      headers: { "x-supabase-api-version": "2024-01-01" },
      payload: solanaGrant(nacl.sign.keyPair()),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ code: "web3_provider_disabled", message: "Solana Web3 provider is disabled" });
    const settings = await server.app.inject({ method: "GET", url: "/auth/v1/settings" });
    expect(settings.json()).toMatchObject({ external: { web3_ethereum: true, web3_solana: false } });
  });

  it("says the chain is disabled whatever was sent with it, and refuses a signature that is not text on a chain that is on", async () => {
    const send = (payload: object) =>
      server.app.inject({
        method: "POST",
        url: "/auth/v1/token?grant_type=web3",
        headers: { "x-supabase-api-version": "2024-01-01" },
        payload,
      });
    const off = await send({ chain: "solana", message: { not: "text" }, signature: { not: "text" } });
    expect(off.json()).toEqual({ code: "web3_provider_disabled", message: "Solana Web3 provider is disabled" });
    const on = await send({ chain: "ethereum", message: "x".repeat(80), signature: { not: "text" } });
    expect(on.statusCode).toBe(400);
    expect(on.json()).toMatchObject({ code: "validation_failed", message: "signature must be a string" });
  });
});

describe("Web3's own rate limit (AUTH_RATE_LIMIT_WEB3, 30 by default)", () => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer(testEngines()[0]!, {
      env: {
        AUTH_WEB3_ETHEREUM_ENABLED: "true",
        AUTH_REDIRECT_URLS: `https://${site}/**`,
        AUTH_RATE_LIMITS: "true",
        AUTH_RATE_LIMIT_TOKEN: "3",
      },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const token = (grantType: string, body: object, options: { accessToken?: string; remoteAddress?: string } = {}) =>
    server.app.inject({
      method: "POST",
      url: `/auth/v1/token?grant_type=${grantType}`,
      headers: {
        "x-supabase-api-version": "2024-01-01",
        ...(options.accessToken ? { authorization: `Bearer ${options.accessToken}` } : {}),
      },
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
      payload: body,
    });

  it("refuses the 31st wallet request from one address, while its password sign-ins keep their own budget", async () => {
    const member = await confirmedMember(server);
    const wallet = newWallet();
    const linked = await token(
      "web3",
      { ...(await ethereumGrant(wallet)), link_identity: true },
      { accessToken: member.session.access_token },
    );
    expect(linked.statusCode, linked.body).toBe(200);
    expect((await token("web3", await ethereumGrant(wallet))).statusCode).toBe(200);
    // Refused attempts count too: 30 in all.
    for (let attempt = 3; attempt <= 30; attempt += 1) {
      const refused = await token("web3", { chain: "ethereum", message: "too short", signature: "0x" });
      expect(refused.statusCode, `attempt ${attempt}`).toBe(400);
    }
    const limited = await token("web3", await ethereumGrant(wallet));
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: "over_request_rate_limit" });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);

    // The 31 wallet requests used none of the token budget (3 here): three password sign-ins, then 429.
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const signedIn = await token("password", { email: member.email, password });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
    }
    const tokenLimited = await token("password", { email: member.email, password });
    expect(tokenLimited.statusCode).toBe(429);
    expect(tokenLimited.json()).toMatchObject({ code: "over_request_rate_limit" });

    // Another client address has budgets of its own.
    const elsewhere = await token("web3", await ethereumGrant(wallet), { remoteAddress: "192.0.2.7" });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
  });
});
