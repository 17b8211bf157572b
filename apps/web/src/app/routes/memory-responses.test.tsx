import type { Comment, CommentList, MemoryPage, ReactionList, TagList } from "@memory-box/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { FakeAuthClient, fakeSession, fakeUser } from "@/testing/fake-auth-client";
import { fakeId, fakeMemory } from "@/testing/memory-fixtures";
import { renderApp } from "@/testing/render-app";
import { apiError, stubMemoryApi } from "@/testing/stub-memory-api";

// The detail page's reactions and comments (ADR 0030), against a stubbed API.

const me = fakeUser();
const partnerId = "00000000-0000-4000-8000-0000000000b2";
const memory = fakeMemory({ title: "Harbour walk", comment_count: 1, reactions: [{ emoji: "❤️", count: 1 }] });
const emptyPage: MemoryPage = { items: [], next_cursor: null, matched: 0, total: 0 };
const noTags: TagList = { tags: [] };

function comment(overrides: Partial<Comment>): Comment {
  return {
    id: fakeId(),
    memory_id: memory.id,
    user_id: me.id,
    author: { display_name: "Alex" },
    body: "A comment",
    created_at: "2024-06-02T10:00:00.000Z",
    updated_at: "2024-06-02T10:00:00.000Z",
    ...overrides,
  };
}

/** The memory, its comments and reactions as a small in-memory server keeps them. */
function stubResponses(comments: Comment[], reactions: ReactionList["reactions"]) {
  return stubMemoryApi({
    "GET /api/v1/memories/:id": () => memory,
    "GET /api/v1/memories/:id/neighbours": () => ({ previous: null, next: null }),
    "GET /api/v1/memories": () => emptyPage,
    "GET /api/v1/tags": () => noTags,
    "GET /api/v1/memories/:id/comments": (): CommentList => ({ comments }),
    "POST /api/v1/memories/:id/comments": ({ body }) => {
      const added = comment({ body: (body as { body: string }).body.trim() });
      comments.push(added);
      return added;
    },
    "PATCH /api/v1/memories/:id/comments/:commentId": () => apiError(403, "not_comment_author"),
    "DELETE /api/v1/memories/:id/comments/:commentId": ({ params }) => {
      comments.splice(
        comments.findIndex((each) => each.id === params.commentId),
        1,
      );
      return undefined;
    },
    "GET /api/v1/memories/:id/reactions": (): ReactionList => ({ reactions }),
    "PUT /api/v1/memories/:id/reactions/:emoji": ({ params }): ReactionList => {
      const existing = reactions.find((each) => each.emoji === params.emoji);
      if (existing)
        Object.assign(existing, {
          count: existing.count + 1,
          mine: true,
          by: [...existing.by, { user_id: "me", display_name: "Alex" }],
        });
      else reactions.push({ emoji: params.emoji as "🎉", count: 1, mine: true, by: [{ user_id: "me", display_name: "Alex" }] });
      return { reactions };
    },
  });
}

function open() {
  return renderApp(`/memory/${memory.id}`, { client: new FakeAuthClient({ session: fakeSession(me) }) });
}

describe("reactions and comments on the detail page", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("shows each reaction's count, pressed when it is the member's own, and toggles one", async () => {
    const api = stubResponses([], [{ emoji: "❤️", count: 1, mine: false, by: [{ user_id: "partner", display_name: "Sam" }] }]);
    open();

    const heart = await screen.findByRole("button", { name: "React with ❤️" });
    await waitFor(() => expect(heart).toBeEnabled());
    expect(heart).toHaveAttribute("aria-pressed", "false");
    expect(heart).toHaveTextContent("1");
    const party = screen.getByRole("button", { name: "React with 🎉" });
    expect(party).toHaveAttribute("aria-pressed", "false");
    expect(screen.getAllByRole("button", { name: /^React with / })).toHaveLength(6);
    // Laid out three a row or six in one by the bar's width, never five and one alone (issue #34).
    const bar = screen.getByRole("group", { name: "Reactions" });
    expect(bar).toHaveClass("grid", "grid-cols-3", "@md/reactions:grid-cols-6");
    expect(bar).not.toHaveClass("flex-wrap");

    fireEvent.click(party);
    await waitFor(() => expect(party).toHaveAttribute("aria-pressed", "true"));
    expect(party).toHaveTextContent("1");
    expect(api.calls("PUT /api/v1/memories/:id/reactions/:emoji").map((call) => decodeURIComponent(call.path))).toEqual([
      `/api/v1/memories/${memory.id}/reactions/🎉`,
    ]);
  });

  it("says who gave each reaction: on the button and in a line under the bar, first to react first", async () => {
    stubResponses(
      [],
      [
        {
          emoji: "❤️",
          count: 2,
          mine: true,
          by: [
            { user_id: "partner", display_name: "Ben" },
            { user_id: me.id, display_name: "Alex" },
          ],
        },
        { emoji: "😂", count: 1, mine: false, by: [{ user_id: "partner", display_name: "Ben" }] },
      ],
    );
    open();

    const heart = await screen.findByRole("button", { name: "React with ❤️" });
    await waitFor(() => expect(heart).toHaveAccessibleDescription("❤️ Ben and Alex"));
    expect(heart).toHaveAttribute("title", "❤️ from Ben and Alex");
    const laugh = screen.getByRole("button", { name: "React with 😂" });
    expect(laugh).toHaveAccessibleDescription("😂 Ben");
    expect(laugh).toHaveAttribute("title", "😂 from Ben");
    // Nobody gave this one: the count alone.
    expect(screen.getByRole("button", { name: "React with 🎉" })).toHaveAttribute("title", "0 reactions");
    const who = screen.getByRole("list", { name: "Who reacted" });
    expect(
      within(who)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["❤️ Ben and Alex", "😂 Ben"]);
  });

  it("lists comments with their authors; the member adds one and deletes their own after confirming", async () => {
    const comments = [
      comment({ user_id: partnerId, author: { display_name: "Sam" }, body: "Such a windy day" }),
      comment({ body: "Mine", created_at: "2024-06-02T11:00:00.000Z", updated_at: "2024-06-03T09:00:00.000Z" }),
    ];
    const api = stubResponses(comments, []);
    open();

    const theirs = await screen.findByRole("article", { name: "Comment by Sam" });
    expect(theirs).toHaveTextContent("Such a windy day");
    expect(within(theirs).queryByRole("button", { name: /edit/i })).not.toBeInTheDocument();
    const mine = screen.getByRole("article", { name: "Comment by Alex" });
    expect(mine).toHaveTextContent("(edited)");

    const field = screen.getByRole("textbox", { name: "Add a comment" });
    const send = screen.getByRole("button", { name: "Comment" });
    expect(send).toBeDisabled();
    fireEvent.change(field, { target: { value: "  Let's go back in spring  " } });
    fireEvent.click(send);
    expect(await screen.findByText("Let's go back in spring")).toBeInTheDocument();
    expect(api.calls("POST /api/v1/memories/:id/comments")[0]?.body).toEqual({ body: "  Let's go back in spring  " });
    await waitFor(() => expect(field).toHaveValue(""));

    fireEvent.click(within(mine).getByRole("button", { name: "Delete comment" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Delete comment" });
    expect(api.calls("DELETE /api/v1/memories/:id/comments/:commentId")).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(screen.queryByRole("article", { name: "Comment by Alex" })).toHaveTextContent("Let's go back"));
    expect(screen.queryByText("Mine")).not.toBeInTheDocument();
  });

  it("says why a change was refused, keeps the text, and refuses a comment that is too long before sending", async () => {
    stubResponses([comment({ body: "Old words" })], []);
    open();

    const mine = await screen.findByRole("article", { name: "Comment by Alex" });
    fireEvent.click(within(mine).getByRole("button", { name: "Edit comment" }));
    const field = within(mine).getByRole("textbox", { name: "Edit your comment" });
    fireEvent.change(field, { target: { value: "New words" } });
    fireEvent.click(within(mine).getByRole("button", { name: "Save" }));
    expect(await within(mine).findByRole("alert")).toHaveTextContent(
      "Only the member who wrote a comment can edit or delete it.",
    );
    expect(field).toHaveValue("New words");
    // Typing again clears the reason; giving up the edit leaves no reason behind under the comment.
    fireEvent.change(field, { target: { value: "New words!" } });
    await waitFor(() => expect(within(mine).queryByRole("alert")).not.toBeInTheDocument());
    fireEvent.click(within(mine).getByRole("button", { name: "Save" }));
    expect(await within(mine).findByRole("alert")).toBeInTheDocument();
    fireEvent.click(within(mine).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(within(mine).queryByRole("alert")).not.toBeInTheDocument());
    expect(mine).toHaveTextContent("Old words");

    const add = screen.getByRole("textbox", { name: "Add a comment" });
    fireEvent.change(add, { target: { value: "x".repeat(2001) } });
    expect(screen.getByText("A comment can be at most 2000 characters (this one has 2001).")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Comment" })).toBeDisabled();
  });

  it("sends a comment again after a dropped connection with the same Idempotency-Key, and the next comment with a new one", async () => {
    const comments: Comment[] = [];
    let attempts = 0;
    const api = stubMemoryApi({
      "GET /api/v1/memories/:id": () => memory,
      "GET /api/v1/memories/:id/neighbours": () => ({ previous: null, next: null }),
      "GET /api/v1/memories": () => emptyPage,
      "GET /api/v1/tags": () => noTags,
      "GET /api/v1/memories/:id/comments": (): CommentList => ({ comments }),
      "GET /api/v1/memories/:id/reactions": (): ReactionList => ({ reactions: [] }),
      "POST /api/v1/memories/:id/comments": ({ body }) => {
        if (++attempts === 1) throw new TypeError("Failed to fetch");
        const added = comment({ body: (body as { body: string }).body });
        comments.push(added);
        return added;
      },
    });
    open();

    const field = await screen.findByRole("textbox", { name: "Add a comment" });
    fireEvent.change(field, { target: { value: "Windy but lovely" } });
    fireEvent.click(screen.getByRole("button", { name: "Comment" }));
    await waitFor(() => expect(api.calls("POST /api/v1/memories/:id/comments")).toHaveLength(1));
    await waitFor(() => expect(screen.getByRole("button", { name: "Comment" })).toBeEnabled());
    fireEvent.click(screen.getByRole("button", { name: "Comment" }));
    expect(await screen.findByText("Windy but lovely")).toBeInTheDocument();
    await waitFor(() => expect(field).toHaveValue(""));
    fireEvent.change(field, { target: { value: "Windy but lovely" } });
    fireEvent.click(screen.getByRole("button", { name: "Comment" }));
    await waitFor(() => expect(api.calls("POST /api/v1/memories/:id/comments")).toHaveLength(3));

    const keys = api.calls("POST /api/v1/memories/:id/comments").map((call) => call.headers.get("Idempotency-Key"));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    // Answered: the same words again are a new comment.
    expect(keys[2]).not.toBe(keys[0]);
  });
});
