import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { forgetSignInProviders } from "@/features/auth/api/providers";
import { FakeAuthClient, fakeSession, fakeUser } from "@/testing/fake-auth-client";
import { renderApp } from "@/testing/render-app";
import { stubMemoryApi } from "@/testing/stub-memory-api";

// The browser wallet is an extension outside Memory Box: a fake EIP-1193 provider stands for an
// Ethereum one, answering the three calls the app makes and recording them; a fake `window.solana`
// (Sign In With Solana, or Phantom's connect and signMessage) for a Solana one.

const address = "0x1234567890AbcdEF1234567890aBcdef12345678";
const signature = `0x${"ab".repeat(65)}`;

function installWallet() {
  const request = vi.fn(async ({ method }: { method: string; params?: unknown[] }) => {
    if (method === "eth_requestAccounts") return [address];
    if (method === "eth_chainId") return "0x1";
    if (method === "personal_sign") return signature;
    throw new Error(`unexpected ${method}`);
  });
  vi.stubGlobal("ethereum", { request });
  return request;
}

/** The message the wallet was asked to sign, decoded from personal_sign's hex. */
function signedMessage(request: ReturnType<typeof installWallet>): string {
  const call = request.mock.calls.find(([args]) => args.method === "personal_sign");
  expect(call?.[0].params?.[1]).toBe(address);
  const hex = String(call?.[0].params?.[0]).slice(2);
  return new TextDecoder().decode(new Uint8Array(hex.match(/../g)!.map((pair) => Number.parseInt(pair, 16))));
}

function settingsRoute(ethereum: boolean, solana = false) {
  return {
    "GET /auth/v1/settings": () => ({
      external: { email: true, web3_ethereum: ethereum, web3_solana: solana },
      external_providers: [],
    }),
  };
}

const solanaAddress = "7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv";
const solanaSignature = new Uint8Array(64).fill(7);

/** A wallet with Sign In With Solana: it writes the message from the fields it is given. */
function installSolanaSignIn() {
  const signIn = vi.fn(async (input: Record<string, string>) => {
    const signedMessage = [
      `${input.domain} wants you to sign in with your Solana account:`,
      solanaAddress,
      "",
      input.statement,
      "",
      `URI: ${input.uri}`,
      `Version: ${input.version}`,
      `Nonce: ${input.nonce}`,
      `Issued At: ${input.issuedAt}`,
    ].join("\n");
    return [
      { account: { address: solanaAddress }, signedMessage: new TextEncoder().encode(signedMessage), signature: solanaSignature },
    ];
  });
  vi.stubGlobal("solana", { signIn });
  return signIn;
}

/** Phantom's injected provider: a key once connected, and `signMessage` answering `{ signature, publicKey }`. */
function installPhantom() {
  const wallet = {
    publicKey: null as { toBase58(): string } | null,
    connect: vi.fn(async () => {
      wallet.publicKey = { toBase58: () => solanaAddress };
    }),
    signMessage: vi.fn(async (message: Uint8Array, encoding?: string) => {
      void message;
      void encoding;
      return { signature: solanaSignature, publicKey: wallet.publicKey };
    }),
  };
  vi.stubGlobal("solana", wallet);
  return wallet;
}

afterEach(() => {
  vi.unstubAllGlobals();
  forgetSignInProviders();
});

describe("auth screen: Continue with Ethereum wallet", () => {
  it("signs a Sign-In with Ethereum message for this site with the wallet and sends it to the auth service", async () => {
    stubMemoryApi(settingsRoute(true));
    const request = installWallet();
    const client = new FakeAuthClient();
    const { user } = renderApp("/auth", { client });

    await user.click(await screen.findByRole("button", { name: "Continue with Ethereum wallet" }));
    await waitFor(() => expect(client.signInWithWeb3).toHaveBeenCalledTimes(1));
    const message = signedMessage(request);
    expect(client.signInWithWeb3).toHaveBeenCalledWith({ chain: "ethereum", message, signature });
    const lines = message.split("\n");
    expect(lines[0]).toBe(`${window.location.host} wants you to sign in with your Ethereum account:`);
    expect(lines[1]).toBe(address);
    expect(lines).toContain(`URI: ${window.location.origin}`);
    expect(lines).toContain("Version: 1");
    expect(lines).toContain("Chain ID: 1");
    expect(message).toMatch(/\nNonce: [0-9a-f]{24}\n/);
    const issuedAt = Date.parse(/Issued At: (\S+)/.exec(message)![1]!);
    expect(Math.abs(Date.now() - issuedAt)).toBeLessThan(60_000);
    // The server's refusal is shown: this wallet is no member's.
    expect(await screen.findByText("No member has connected this wallet.")).toBeInTheDocument();
  });

  it("is not offered without a wallet in the browser", async () => {
    stubMemoryApi(settingsRoute(true, true));
    renderApp("/auth");
    expect(await screen.findByRole("button", { name: "Sign In" })).toBeInTheDocument();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(screen.queryByRole("button", { name: "Continue with Ethereum wallet" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Continue with Solana wallet" })).not.toBeInTheDocument();
  });

  it("is not offered when the server does not take wallets", async () => {
    const { fetchMock } = stubMemoryApi(settingsRoute(false));
    const request = installWallet();
    renderApp("/auth");
    expect(await screen.findByRole("button", { name: "Sign In" })).toBeInTheDocument();
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByRole("button", { name: "Continue with Ethereum wallet" })).not.toBeInTheDocument();
    expect(request).not.toHaveBeenCalled();
  });

  it("says so when the person declines to sign in the wallet", async () => {
    stubMemoryApi(settingsRoute(true));
    const request = installWallet();
    request.mockRejectedValueOnce(new Error("User rejected the request."));
    const client = new FakeAuthClient();
    const { user } = renderApp("/auth", { client });
    await user.click(await screen.findByRole("button", { name: "Continue with Ethereum wallet" }));
    expect(await screen.findByText("User rejected the request.")).toBeInTheDocument();
    expect(client.signInWithWeb3).not.toHaveBeenCalled();
  });
});

describe("auth screen: Continue with Solana wallet", () => {
  it("lets a wallet with Sign In With Solana write the message for this site, and sends what it signed", async () => {
    stubMemoryApi(settingsRoute(false, true));
    const signIn = installSolanaSignIn();
    const client = new FakeAuthClient();
    const { user } = renderApp("/auth", { client });

    await user.click(await screen.findByRole("button", { name: "Continue with Solana wallet" }));
    await waitFor(() => expect(client.signInWithWeb3).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole("button", { name: "Continue with Ethereum wallet" })).not.toBeInTheDocument();
    const [input] = signIn.mock.calls[0]!;
    expect(input).toMatchObject({ domain: window.location.host, uri: window.location.origin, version: "1" });
    expect(input.nonce).toMatch(/^[0-9a-f]{24}$/);
    expect(Math.abs(Date.now() - Date.parse(input.issuedAt!))).toBeLessThan(60_000);
    const [credentials] = vi.mocked(client.signInWithWeb3).mock.calls[0]!;
    expect(credentials).toMatchObject({ chain: "solana", signature: solanaSignature });
    const message = (credentials as { message: string }).message;
    expect(message.split("\n").slice(0, 2)).toEqual([
      `${window.location.host} wants you to sign in with your Solana account:`,
      solanaAddress,
    ]);
    expect(message).toContain(`Nonce: ${input.nonce}`);
    expect(await screen.findByText("No member has connected this wallet.")).toBeInTheDocument();
  });

  it("with Phantom's connect and signMessage: writes the Sign-In with Solana message itself", async () => {
    stubMemoryApi(settingsRoute(true, true));
    installWallet();
    const phantom = installPhantom();
    const client = new FakeAuthClient();
    const { user } = renderApp("/auth", { client });

    expect(await screen.findByRole("button", { name: "Continue with Ethereum wallet" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Continue with Solana wallet" }));
    await waitFor(() => expect(client.signInWithWeb3).toHaveBeenCalledTimes(1));
    expect(phantom.connect).toHaveBeenCalledTimes(1);
    const [bytes, encoding] = phantom.signMessage.mock.calls[0]!;
    expect(encoding).toBe("utf8");
    const message = new TextDecoder().decode(bytes);
    expect(client.signInWithWeb3).toHaveBeenCalledWith({ chain: "solana", message, signature: solanaSignature });
    const lines = message.split("\n");
    expect(lines.slice(0, 3)).toEqual([
      `${window.location.host} wants you to sign in with your Solana account:`,
      solanaAddress,
      "",
    ]);
    expect(lines).toContain(`URI: ${window.location.origin}`);
    expect(lines).toContain("Version: 1");
    expect(message).toMatch(/\nNonce: [0-9a-f]{24}(\n|$)/);
  });

  it("is not offered when the server does not take Solana wallets", async () => {
    const { fetchMock } = stubMemoryApi(settingsRoute(true, false));
    const signIn = installSolanaSignIn();
    renderApp("/auth");
    expect(await screen.findByRole("button", { name: "Sign In" })).toBeInTheDocument();
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByRole("button", { name: "Continue with Solana wallet" })).not.toBeInTheDocument();
    expect(signIn).not.toHaveBeenCalled();
  });

  it("says so when the person declines to sign in the wallet", async () => {
    stubMemoryApi(settingsRoute(false, true));
    installSolanaSignIn().mockRejectedValueOnce(new Error("User rejected the request."));
    const client = new FakeAuthClient();
    const { user } = renderApp("/auth", { client });
    await user.click(await screen.findByRole("button", { name: "Continue with Solana wallet" }));
    expect(await screen.findByText("User rejected the request.")).toBeInTheDocument();
    expect(client.signInWithWeb3).not.toHaveBeenCalled();
  });
});

describe("settings: Connect an Ethereum wallet", () => {
  const devices = { "GET /api/v1/account/devices": () => ({ devices: [] }) };

  it("connects the wallet with the member's token, ends the extra session the server answers, and lists the wallet", async () => {
    const session = fakeSession(fakeUser({ email: "ann@example.org" }));
    const { calls } = stubMemoryApi({
      ...settingsRoute(true),
      ...devices,
      "POST /auth/v1/token": () => Response.json({ access_token: "extra-session-token", refresh_token: "r" }),
      "POST /auth/v1/logout": () => new Response(null, { status: 204 }),
    });
    const request = installWallet();
    const client = new FakeAuthClient({ session });
    const walletIdentity = {
      identity_id: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
      id: `web3:ethereum:${address}`,
      user_id: session.user.id,
      provider: "web3",
      identity_data: { address, chain: "ethereum", network: "1" },
    };
    // None connected at first; the list asked again after connecting has the wallet.
    vi.mocked(client.getUserIdentities)
      .mockResolvedValueOnce({ data: { identities: [] }, error: null })
      .mockResolvedValue({ data: { identities: [walletIdentity] }, error: null });
    const { user } = renderApp("/settings", { client });

    expect(await screen.findByText("No account is connected.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Connect an Ethereum wallet" }));
    expect(await screen.findByText("Wallet connected")).toBeInTheDocument();
    const [linking] = calls("POST /auth/v1/token");
    expect(linking?.headers.get("authorization")).toBe(`Bearer ${session.access_token}`);
    expect(linking?.body).toEqual({ chain: "ethereum", message: signedMessage(request), signature, link_identity: true });
    const [logout] = calls("POST /auth/v1/logout");
    expect(logout?.headers.get("authorization")).toBe("Bearer extra-session-token");

    // The wallet is listed, shortened, with a way to disconnect it.
    expect(await screen.findByText("· 0x1234…5678")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Disconnect Wallet" }));
    await waitFor(() => expect(client.unlinkIdentity).toHaveBeenCalledWith(walletIdentity));
  });

  it("shows the server's refusal, such as a wallet another member connected", async () => {
    stubMemoryApi({
      ...settingsRoute(true),
      ...devices,
      "POST /auth/v1/token": () =>
        Response.json(
          { code: "identity_already_exists", message: "Identity is already linked to another user" },
          { status: 422 },
        ),
    });
    installWallet();
    const { user } = renderApp("/settings", { client: new FakeAuthClient({ session: fakeSession() }) });
    await user.click(await screen.findByRole("button", { name: "Connect an Ethereum wallet" }));
    expect(await screen.findByText("Identity is already linked to another user")).toBeInTheDocument();
  });

  it("connects a Solana wallet: the signature sent as base64, with the member's token", async () => {
    const session = fakeSession(fakeUser({ email: "ann@example.org" }));
    const { calls } = stubMemoryApi({
      ...settingsRoute(false, true),
      ...devices,
      "POST /auth/v1/token": () => Response.json({ access_token: "extra-session-token", refresh_token: "r" }),
      "POST /auth/v1/logout": () => new Response(null, { status: 204 }),
    });
    const phantom = installPhantom();
    const { user } = renderApp("/settings", { client: new FakeAuthClient({ session }) });

    expect(await screen.findByText("No account is connected.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Connect an Ethereum wallet" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Connect a Solana wallet" }));
    expect(await screen.findByText("Wallet connected")).toBeInTheDocument();
    const [linking] = calls("POST /auth/v1/token");
    expect(linking?.headers.get("authorization")).toBe(`Bearer ${session.access_token}`);
    expect(linking?.body).toEqual({
      chain: "solana",
      message: new TextDecoder().decode(phantom.signMessage.mock.calls[0]![0]),
      signature: btoa(String.fromCharCode(...solanaSignature)),
      link_identity: true,
    });
    expect(calls("POST /auth/v1/logout")).toHaveLength(1);
  });

  it("shows no Connected accounts section without a wallet in the browser (and no provider)", async () => {
    const { calls } = stubMemoryApi({ ...settingsRoute(true), ...devices });
    renderApp("/settings", { client: new FakeAuthClient({ session: fakeSession() }) });
    expect(await screen.findByRole("heading", { name: "Passkeys" })).toBeInTheDocument();
    await waitFor(() => expect(calls("GET /auth/v1/settings")).toHaveLength(1));
    expect(screen.queryByRole("heading", { name: "Connected accounts" })).not.toBeInTheDocument();
  });
});
