import type { DeviceAuthorization, FrameSlide, FrameSlides } from "@memory-box/contract";
import { FRAME_CLIENT_ID } from "@memory-box/contract";
import { render, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";

import { AppProvider } from "@/app/provider";
import { frameFetch, frameSessionKey, storedFrameTokens, type FrameTokens } from "@/features/frame/api/frame-session";
import { pairFrame } from "@/features/frame/api/pairing";
import { mediaCacheName, slidesStorageKey } from "@/features/frame/api/slides";
import { FramePage } from "@/features/frame/components/frame-page";
import { isNight } from "@/features/frame/utils/show-order";
import { fakeCacheStorage } from "@/testing/fake-cache-storage";
import { renderApp } from "@/testing/render-app";

// The frame's page (issue #36, ADR 0076): pairing by the device grant, then the slideshow.

type Handler = (request: { url: URL; init: RequestInit | undefined; form: URLSearchParams }) => Response | Promise<Response>;

/** Stands in for fetch: "METHOD /path" → handler; anything else fails as a network error would. */
function stubFetch(routes: Record<string, Handler>) {
  const calls: { key: string; url: URL; form: URLSearchParams; headers: Headers }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input, "http://localhost");
    const key = `${(init?.method ?? "GET").toUpperCase()} ${url.pathname}`;
    const form = new URLSearchParams(typeof init?.body === "string" ? init.body : "");
    calls.push({ key, url, form, headers: new Headers(init?.headers) });
    const handler = routes[key];
    if (!handler) throw new TypeError(`Failed to fetch ${key}`);
    return handler({ url, init, form });
  });
  vi.stubGlobal("fetch", fetchMock);
  return { calls: (key: string) => calls.filter((call) => call.key === key) };
}

const authorization = (code = "BCDFGHJK", interval = 5): DeviceAuthorization => ({
  device_code: `device-${code}`,
  // As the server sends it: formatted for showing.
  user_code: `${code.slice(0, 4)}-${code.slice(4)}`,
  verification_uri: "http://localhost/device",
  verification_uri_complete: `http://localhost/device?user_code=${code.slice(0, 4)}-${code.slice(4)}`,
  expires_in: 600,
  interval,
});

const oauthError = (error: string, status = 400) => Response.json({ error, error_description: error }, { status });
const session = (access = "frame-access") =>
  Response.json({ access_token: access, refresh_token: `refresh-of-${access}`, expires_in: 3600, token_type: "bearer" });

/** Answers the token endpoint with these, in order, then "pending" for ever. */
function tokenAnswers(...answers: (() => Response)[]): Handler {
  let next = 0;
  return () => (answers[next++] ?? (() => oauthError("authorization_pending")))();
}

function slide(id: string, overrides: Partial<FrameSlide> = {}): FrameSlide {
  return {
    photo_id: `00000000-0000-4000-8000-${id.padStart(12, "0")}`,
    memory_id: `00000000-0000-4000-9000-${id.padStart(12, "0")}`,
    title: `Memory ${id}`,
    memory_date: "2024-06-01",
    kind: "photo",
    width: 1600,
    height: 1200,
    placeholder: "",
    url: `/api/v1/frame/media/${id}.webp`,
    video_url: null,
    ...overrides,
  };
}

const display = { clock: false, night: null };
const frameInfo = { id: "00000000-0000-4000-8000-00000000f001", name: "Living room", display };

function page(slides: FrameSlide[], next_cursor: string | null = null): FrameSlides {
  return { frame: frameInfo, slides, next_cursor, refresh_seconds: 30 };
}

const photo = () => new Response("photo-bytes", { headers: { "Content-Type": "image/webp" } });

function paired(tokens: Partial<FrameTokens> = {}) {
  localStorage.setItem(
    frameSessionKey,
    JSON.stringify({
      access_token: "frame-access",
      refresh_token: "frame-refresh",
      expires_at: Math.floor(Date.now() / 1000) + 3600,
      ...tokens,
    }),
  );
}

/** A clock for the pairing that lets a little real time pass, so the screen shows each step. */
const quickWait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, Math.min(ms, 20));
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new DOMException("aborted", "AbortError"));
    });
  });

function renderFrame(options: Parameters<typeof FramePage>[0] = {}) {
  return render(
    <AppProvider>
      <FramePage pairingWait={quickWait} slideSeconds={0.05} fadeMs={0} {...options} />
    </AppProvider>,
  );
}

beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal("caches", fakeCacheStorage());
});

describe("pairing a frame", () => {
  it("polls at the server's interval, five seconds slower after slow_down, and keeps the tokens the approval gives", async () => {
    const api = stubFetch({
      "POST /auth/v1/oauth/device_authorization": () => Response.json(authorization()),
      "POST /auth/v1/oauth/token": tokenAnswers(
        () => oauthError("authorization_pending"),
        () => oauthError("slow_down"),
        () => oauthError("authorization_pending"),
        () => session("approved-access"),
      ),
    });
    const waits: number[] = [];
    const codes: string[] = [];
    const tokens = await pairFrame({
      signal: new AbortController().signal,
      onCode: (shown) => codes.push(shown.user_code),
      wait: async (ms) => void waits.push(ms),
    });

    expect(waits).toEqual([5000, 5000, 10_000, 10_000]);
    expect(codes).toEqual(["BCDF-GHJK"]);
    expect(tokens.access_token).toBe("approved-access");
    expect(storedFrameTokens()?.refresh_token).toBe("refresh-of-approved-access");
    const [request] = api.calls("POST /auth/v1/oauth/device_authorization");
    expect(Object.fromEntries(request!.form)).toEqual({ client_id: FRAME_CLIENT_ID, scope: "frame" });
    expect(Object.fromEntries(api.calls("POST /auth/v1/oauth/token")[0]!.form)).toEqual({
      grant_type: "urn:ietf:params:oauth:grant-type:device_code",
      device_code: "device-BCDFGHJK",
      client_id: FRAME_CLIENT_ID,
    });
  });

  it("shows the code big, a QR code of the address with the code, and where to enter it", async () => {
    stubFetch({
      "POST /auth/v1/oauth/device_authorization": () => Response.json(authorization()),
      "POST /auth/v1/oauth/token": tokenAnswers(),
    });
    renderFrame();
    expect(await screen.findByText("BCDF-GHJK")).toBeInTheDocument();
    expect(screen.getByText("Open localhost/device on your phone and enter this code")).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "QR code that opens the pairing page with this code" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 1, name: "Show your memories on this screen" })).toBeInTheDocument();
  });

  it("shows a new code when the last one expired", async () => {
    const codes = ["BCDFGHJK", "LMNPQRST"];
    stubFetch({
      "POST /auth/v1/oauth/device_authorization": () => Response.json(authorization(codes.shift())),
      "POST /auth/v1/oauth/token": tokenAnswers(() => oauthError("expired_token")),
    });
    renderFrame();
    expect(await screen.findByText("LMNP-QRST")).toBeInTheDocument();
    expect(screen.getByText("The code expired. Here is a new one.")).toBeInTheDocument();
  });

  it("says a declined pairing was declined, and shows a new code", async () => {
    const codes = ["BCDFGHJK", "LMNPQRST"];
    stubFetch({
      "POST /auth/v1/oauth/device_authorization": () => Response.json(authorization(codes.shift())),
      "POST /auth/v1/oauth/token": tokenAnswers(
        () => oauthError("authorization_pending"),
        () => oauthError("access_denied"),
      ),
    });
    renderFrame();
    expect(await screen.findByText("LMNP-QRST")).toBeInTheDocument();
    expect(screen.getByText("The pairing was declined. Here is a new code.")).toBeInTheDocument();
  });

  it("goes on to the slideshow once allowed, on its own route, with no member signed in", async () => {
    stubFetch({
      "POST /auth/v1/oauth/device_authorization": () => Response.json(authorization("BCDFGHJK", 1)),
      "POST /auth/v1/oauth/token": tokenAnswers(() => session()),
      "GET /api/v1/frame/slides": () => Response.json(page([slide("1")])),
      "GET /api/v1/frame/media/1.webp": photo,
    });
    renderApp("/frame");
    expect(await screen.findByText("BCDF-GHJK")).toBeInTheDocument();
    // The route's own clock: the first poll after the second the server asked for.
    expect(await screen.findByRole("img", { name: "Memory 1" })).toBeInTheDocument();
    expect(storedFrameTokens()?.access_token).toBe("frame-access");
  });
});

describe("the frame's tokens", () => {
  it("are refreshed before they expire, as the frame's client, and the request carries the new one", async () => {
    paired({ expires_at: Math.floor(Date.now() / 1000) + 20 });
    const api = stubFetch({
      "POST /auth/v1/oauth/token": () => session("fresh-access"),
      "GET /api/v1/frame/slides": () => Response.json(page([])),
    });
    await frameFetch("/api/v1/frame/slides?today=2026-11-28");
    expect(Object.fromEntries(api.calls("POST /auth/v1/oauth/token")[0]!.form)).toEqual({
      grant_type: "refresh_token",
      refresh_token: "frame-refresh",
      client_id: FRAME_CLIENT_ID,
    });
    expect(api.calls("GET /api/v1/frame/slides")[0]!.headers.get("Authorization")).toBe("Bearer fresh-access");
    expect(storedFrameTokens()?.refresh_token).toBe("refresh-of-fresh-access");
  });
});

describe("the slideshow", () => {
  it("walks every page of slides for the frame's day, and shows them in turn with their titles and dates", async () => {
    paired();
    const api = stubFetch({
      "GET /api/v1/frame/slides": ({ url }) =>
        Response.json(
          url.searchParams.get("cursor") === "page-2" ? page([slide("2", { title: "Beach" })]) : page([slide("1")], "page-2"),
        ),
      "GET /api/v1/frame/media/1.webp": photo,
      "GET /api/v1/frame/media/2.webp": photo,
    });
    renderFrame();
    expect(await screen.findByRole("img", { name: "Memory 1" })).toBeInTheDocument();
    expect(screen.getAllByText("June 1, 2024").length).toBeGreaterThan(0);
    expect(await screen.findByRole("img", { name: "Beach" })).toBeInTheDocument();
    const [first, second] = api.calls("GET /api/v1/frame/slides");
    const today = new Date();
    const pad = (value: number) => String(value).padStart(2, "0");
    expect(first!.url.searchParams.get("today")).toBe(
      `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`,
    );
    expect(first!.url.searchParams.get("cursor")).toBeNull();
    expect(second!.url.searchParams.get("cursor")).toBe("page-2");
    expect(api.calls("GET /api/v1/frame/media/1.webp")[0]!.headers.get("Authorization")).toBe("Bearer frame-access");
  });

  it("shows two portrait photos side by side on a landscape screen", async () => {
    paired();
    const portrait = { width: 900, height: 1600 };
    stubFetch({
      "GET /api/v1/frame/slides": () => Response.json(page([slide("1", portrait), slide("2", portrait)])),
      "GET /api/v1/frame/media/1.webp": photo,
      "GET /api/v1/frame/media/2.webp": photo,
    });
    renderFrame({ slideSeconds: 60 });
    expect(await screen.findByRole("img", { name: "Memory 1" })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Memory 2" })).toBeInTheDocument();
  });

  it("shows from what it kept when the server cannot be reached, and says it is offline", async () => {
    paired();
    stubFetch({
      "GET /api/v1/frame/slides": () => Response.json(page([slide("1")])),
      "GET /api/v1/frame/media/1.webp": photo,
    });
    const first = renderFrame({ slideSeconds: 60 });
    expect(await screen.findByRole("img", { name: "Memory 1" })).toBeInTheDocument();
    await waitFor(async () => expect(await (await caches.open(mediaCacheName)).keys()).toHaveLength(1));
    first.unmount();

    // The server is gone: nothing answers.
    const api = stubFetch({});
    renderFrame({ slideSeconds: 60 });
    expect(await screen.findByRole("img", { name: "Memory 1" })).toBeInTheDocument();
    expect(await screen.findByText("Offline: showing saved photos")).toBeInTheDocument();
    expect(api.calls("GET /api/v1/frame/slides")).toHaveLength(1);
    expect(api.calls("GET /api/v1/frame/media/1.webp")).toHaveLength(0);
    expect(screen.queryByRole("heading", { name: "Something went wrong" })).not.toBeInTheDocument();
  });

  it("says there is nothing to show yet when the frame's selection is empty", async () => {
    paired();
    stubFetch({ "GET /api/v1/frame/slides": () => Response.json(page([])) });
    renderFrame();
    expect(await screen.findByText("Nothing to show yet")).toBeInTheDocument();
    expect(screen.getByText("The memories chosen for Living room appear here as soon as there are some.")).toBeInTheDocument();
  });

  it("forgets everything and goes back to pairing when the server no longer knows the frame (removed in Settings)", async () => {
    paired();
    localStorage.setItem(slidesStorageKey, JSON.stringify(page([slide("1")])));
    await (await caches.open(mediaCacheName)).put("/api/v1/frame/media/1.webp", new Response("kept"));
    const api = stubFetch({
      "GET /api/v1/frame/slides": () => new Response(null, { status: 401 }),
      "GET /api/v1/frame/media/1.webp": () => new Response(null, { status: 401 }),
      "POST /auth/v1/oauth/token": ({ form }) =>
        form.get("grant_type") === "refresh_token" ? oauthError("invalid_grant") : oauthError("authorization_pending"),
      "POST /auth/v1/oauth/device_authorization": () => Response.json(authorization("LMNPQRST")),
    });
    renderFrame();
    expect(await screen.findByText("LMNP-QRST")).toBeInTheDocument();
    expect(
      screen.getByText("This frame was removed. To show memories here again, pair it with the code below."),
    ).toBeInTheDocument();
    expect(localStorage.getItem(frameSessionKey)).toBeNull();
    expect(localStorage.getItem(slidesStorageKey)).toBeNull();
    await waitFor(async () => expect(await caches.has(mediaCacheName)).toBe(false));
    expect(api.calls("POST /auth/v1/oauth/token").some(({ form }) => form.get("grant_type") === "refresh_token")).toBe(true);
  });

  it("releases each photo's object URL once it has left the screen, and every one when the page goes", async () => {
    paired();
    const created: string[] = [];
    const revoked: string[] = [];
    let count = 0;
    onTestFinished(() => void vi.restoreAllMocks());
    vi.spyOn(URL, "createObjectURL").mockImplementation(() => {
      const url = `blob:frame/${++count}`;
      created.push(url);
      return url;
    });
    vi.spyOn(URL, "revokeObjectURL").mockImplementation((url) => void revoked.push(url));
    stubFetch({
      "GET /api/v1/frame/slides": () => Response.json(page([slide("1"), slide("2"), slide("3")])),
      "GET /api/v1/frame/media/1.webp": photo,
      "GET /api/v1/frame/media/2.webp": photo,
      "GET /api/v1/frame/media/3.webp": photo,
    });
    const view = renderFrame({ slideSeconds: 0.03 });
    await waitFor(() => expect(created.length).toBeGreaterThanOrEqual(8));
    // At most the slide shown, the one fading out and the one decoded ahead are alive.
    expect(created.length - new Set(revoked).size).toBeLessThanOrEqual(3);
    view.unmount();
    await waitFor(() => expect(new Set(revoked)).toEqual(new Set(created)));
    expect(revoked).toHaveLength(new Set(revoked).size);
  });
});

describe("dimming at night", () => {
  const at = (time: string) => new Date(`2026-11-28T${time}:00`);

  it("dims from the evening until the morning, across midnight", () => {
    const night = { from: "22:00", to: "07:00" };
    expect(isNight(night, at("21:59"))).toBe(false);
    expect(isNight(night, at("22:00"))).toBe(true);
    expect(isNight(night, at("23:30"))).toBe(true);
    expect(isNight(night, at("00:00"))).toBe(true);
    expect(isNight(night, at("06:59"))).toBe(true);
    expect(isNight(night, at("07:00"))).toBe(false);
    expect(isNight(night, at("12:00"))).toBe(false);
  });

  it("dims within one day, and never without a schedule", () => {
    expect(isNight({ from: "13:00", to: "15:00" }, at("14:00"))).toBe(true);
    expect(isNight({ from: "13:00", to: "15:00" }, at("15:00"))).toBe(false);
    expect(isNight({ from: "13:00", to: "15:00" }, at("12:59"))).toBe(false);
    expect(isNight(null, at("23:00"))).toBe(false);
  });

  it("darkens the slideshow while it is night", async () => {
    paired();
    const now = new Date();
    const hour = (offset: number) => `${String((now.getHours() + 24 + offset) % 24).padStart(2, "0")}:00`;
    stubFetch({
      "GET /api/v1/frame/slides": () =>
        Response.json({ ...page([]), frame: { ...frameInfo, display: { clock: true, night: { from: hour(-1), to: hour(1) } } } }),
    });
    renderFrame();
    await waitFor(() => expect(screen.getByTestId("frame-night")).toHaveAttribute("data-night", "true"));
    expect(screen.getByTestId("frame-clock")).toBeInTheDocument();
  });
});
