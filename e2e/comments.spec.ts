import { expect, test } from "./fixtures";
import { aheadDate, memberApiAs, memberPage } from "./support";

test("one member comments and reacts; the other sees both live, on the memory and on its card", async ({ browser, request }) => {
  const run = Date.now().toString(36);
  const title = `Lighthouse ${run}`;
  // Dated after anything else in the collection, so its card is on home's first screen.
  const memory = await memberApiAs(request, "comments-ann").createMemory({ title, memory_date: aheadDate(11, 20) });

  // Ben keeps the memory open; everything below reaches him without a reload.
  const ben = await memberPage(browser, "comments-ben", `/memory/${memory.id}`);
  await expect(ben.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(ben.getByText("No comments yet.")).toBeVisible();
  const bensHeart = ben.getByRole("button", { name: "React with ❤️" });
  await expect(bensHeart).toHaveAttribute("aria-pressed", "false");

  const ann = await memberPage(browser, "comments-ann", `/memory/${memory.id}`);
  const annsHeart = ann.getByRole("button", { name: "React with ❤️" });
  await expect(annsHeart).toBeEnabled();
  await annsHeart.click();
  await expect(annsHeart).toHaveAttribute("aria-pressed", "true");
  await ann.getByRole("textbox", { name: "Add a comment" }).fill("The wind nearly took my hat");
  await ann.getByRole("button", { name: "Comment", exact: true }).click();
  const annsComment = ann.getByRole("article", { name: /^Comment by / });
  await expect(annsComment).toContainText("The wind nearly took my hat");
  await expect(ann.getByRole("textbox", { name: "Add a comment" })).toHaveValue("");
  // A memory with its author's comment and reaction, and home's card counts, are checked with axe
  // by the screens journey (e2e/screens.spec.ts).

  // Live on Ben's open page: the comment, and the heart counted but not pressed (it is Ann's).
  await expect(ben.getByText("The wind nearly took my hat")).toBeVisible();
  await expect(bensHeart).toContainText("1");
  await expect(bensHeart).toHaveAttribute("aria-pressed", "false");
  // Only the author may change a comment: Ben has no edit or delete on Ann's.
  await expect(ben.getByRole("button", { name: "Edit comment" })).toHaveCount(0);
  await expect(ben.getByRole("button", { name: "Delete comment" })).toHaveCount(0);
  await bensHeart.click();
  await expect(bensHeart).toHaveAttribute("aria-pressed", "true");
  await expect(bensHeart).toContainText("2");
  await expect(annsHeart).toContainText("2");

  // Ann edits her comment; Ben's page follows.
  await annsComment.getByRole("button", { name: "Edit comment" }).click();
  await annsComment.getByRole("textbox", { name: "Edit your comment" }).fill("The wind took my hat");
  await annsComment.getByRole("button", { name: "Save" }).click();
  await expect(annsComment).toContainText("(edited)");
  await expect(ben.getByText("The wind took my hat")).toBeVisible();

  // Home's card counts, through the app (no reload), and live when Ann comments again.
  await ben.getByRole("link", { name: "Back to Memories" }).first().click();
  const card = ben.getByRole("listitem").filter({ has: ben.getByRole("link", { name: title }) });
  const counts = card.getByRole("list", { name: "Comments and reactions" });
  await expect(counts).toContainText("1 comment");
  await expect(counts).toContainText("❤️ 2");
  await ann.getByRole("textbox", { name: "Add a comment" }).fill("Same time next year?");
  await ann.getByRole("button", { name: "Comment", exact: true }).click();
  await expect(counts).toContainText("2 comments");

  // Deleting asks first; afterwards the comment is gone on both screens.
  const second = ann.getByRole("article", { name: /^Comment by / }).filter({ hasText: "Same time next year?" });
  await second.getByRole("button", { name: "Delete comment" }).click();
  const dialog = ann.getByRole("alertdialog", { name: "Delete comment" });
  await expect(dialog).toContainText("Are you sure you want to delete this comment?");
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(ann.getByText("Same time next year?")).toHaveCount(0);
  await expect(counts).toContainText("1 comment");
});
