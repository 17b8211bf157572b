import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { FakeAuthClient } from "@/testing/fake-auth-client";
import { renderApp } from "@/testing/render-app";
import { apiError, deferred, stubMemoryApi, type ApiHandler } from "@/testing/stub-memory-api";

// The e-mail digest's one-click unsubscribe page (issue #33), signed out.

const token = "dGhlLXRva2Vu.c2lnbmVk";
const route = "POST /api/v1/notifications/email/unsubscribe";

function open(answer: ApiHandler, path = `/unsubscribe?token=${encodeURIComponent(token)}`) {
  const api = stubMemoryApi({ [route]: answer });
  return { ...renderApp(path, { client: new FakeAuthClient() }), api };
}

/** The requests the page sent: their URL, headers and body as the browser would send them. */
function sent(api: ReturnType<typeof stubMemoryApi>) {
  return api.fetchMock.mock.calls
    .filter(([input]) => typeof input === "string" && input.startsWith("/api/v1/notifications/email/unsubscribe"))
    .map(([input, init]) => ({ url: input as string, method: init?.method, body: (init?.body as URLSearchParams).toString() }));
}

describe("the digest's unsubscribe page", () => {
  it("asks first, then sends the one-click unsubscribe with the link's token, and says it is done", async () => {
    const held = deferred<Response>();
    const { api, user } = open(() => held.promise);

    expect(await screen.findByRole("heading", { name: "Stop the email digest?" })).toBeInTheDocument();
    // Opening the link changed nothing (mail scanners open links).
    expect(sent(api)).toEqual([]);
    await user.click(screen.getByRole("button", { name: "Stop the digest" }));
    expect(await screen.findByRole("button", { name: "Stopping..." })).toBeDisabled();
    held.resolve(new Response(null, { status: 200 }));

    expect(await screen.findByRole("heading", { name: "Digest stopped" })).toBeInTheDocument();
    expect(screen.getByText("You will get no more digests. You can turn them back on in Settings.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Open Settings" })).toHaveAttribute("href", "/settings/notifications");
    expect(sent(api)).toEqual([
      {
        url: `/api/v1/notifications/email/unsubscribe?token=${encodeURIComponent(token)}`,
        method: "POST",
        body: "List-Unsubscribe=One-Click",
      },
    ]);
    // Form-encoded, as RFC 8058's one-click body is: the browser sets the type for URLSearchParams.
    expect(api.fetchMock.mock.calls[0]?.[1]?.body).toBeInstanceOf(URLSearchParams);
  });

  it.each([
    ["refused as malformed", 400, "validation_failed"],
    ["already used or forged", 401, "invalid_token"],
  ])("says the link does not work when it is %s", async (_case, status, code) => {
    const { user } = open(() => apiError(status, code));
    await user.click(await screen.findByRole("button", { name: "Stop the digest" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This link does not work");
    expect(screen.queryByRole("button", { name: "Stop the digest" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Open Settings" })).toBeInTheDocument();
  });

  it("says the link does not work when it has no token, without asking the server", async () => {
    const { api } = open(() => new Response(null, { status: 200 }), "/unsubscribe");
    expect(await screen.findByRole("alert")).toHaveTextContent("This link does not work");
    expect(sent(api)).toEqual([]);
  });

  it("says when the server could not do it, and lets the member try again", async () => {
    let answers = 0;
    const { user } = open(() => (++answers === 1 ? apiError(503, "unavailable") : new Response(null, { status: 200 })));
    await user.click(await screen.findByRole("button", { name: "Stop the digest" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The digest was not stopped");
    expect(screen.getByRole("alert")).toHaveTextContent("Something went wrong. Check your connection and try again.");

    await user.click(screen.getByRole("button", { name: "Stop the digest" }));
    expect(await screen.findByRole("heading", { name: "Digest stopped" })).toBeInTheDocument();
  });

  it("says when the connection failed", async () => {
    const { user } = open(() => {
      throw new TypeError("Failed to fetch");
    });
    await user.click(await screen.findByRole("button", { name: "Stop the digest" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The digest was not stopped");
  });
});
