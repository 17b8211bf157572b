import { reactionEmojis, type Memory } from "@memory-box/contract";
import { useId, useMemo } from "react";

import { Button } from "@/components/ui/button";
import { useReactions, useToggleReaction } from "@/features/memories/api/reactions";
import { responseProblem } from "@/features/memories/utils/comment-problems";
import { cn } from "@/lib/utils";
import { useIntl } from "@/lib/intl";

/**
 * The six reactions under a memory, each a toggle showing how many members chose it; pressed when
 * the member is one of them, and who gave them (issue #33): a line under the bar ("❤️ Ben and Ann"),
 * which is also the button's description, and the button's tooltip ("❤️ from Ben and Ann"). Until
 * the member's own are known, the memory's counts show, disabled.
 *
 * The six sit in a grid by the bar's own width, three a row where six do not fit and six in one row
 * where they do, so a wrap never leaves one alone on a line (issue #34).
 */
export function ReactionBar({ memory }: { memory: Pick<Memory, "id" | "reactions"> }) {
  const intl = useIntl();
  const id = useId();
  const reactions = useReactions(memory.id);
  const toggle = useToggleReaction(memory.id);
  const shown = reactions.data ?? memory.reactions.map((reaction) => ({ ...reaction, mine: false, by: [] }));
  const list = useMemo(() => new Intl.ListFormat(intl.intlLocale, { type: "conjunction", style: "long" }), [intl.intlLocale]);
  const names = (by: readonly { display_name: string }[]) => list.format(by.map((giver) => giver.display_name));
  const given = shown.filter((reaction) => reaction.by.length > 0);

  return (
    <div className="@container/reactions flex flex-col gap-2">
      <div
        role="group"
        aria-label={intl.formatMessage({ id: "memory.reactions.label" })}
        className="grid w-fit grid-cols-3 gap-2 @md/reactions:grid-cols-6"
      >
        {reactionEmojis.map((emoji) => {
          const reaction = shown.find((each) => each.emoji === emoji);
          const count = reaction?.count ?? 0;
          const mine = reaction?.mine ?? false;
          const by = reaction?.by ?? [];
          return (
            <Button
              key={emoji}
              type="button"
              variant="outline"
              size="sm"
              aria-label={intl.formatMessage({ id: "memory.reactions.react" }, { emoji })}
              aria-pressed={mine}
              aria-describedby={by.length > 0 ? `${id}-${emoji}` : undefined}
              title={
                by.length > 0
                  ? intl.formatMessage({ id: "memory.reactions.by" }, { emoji, names: names(by) })
                  : intl.formatMessage({ id: "memory.reactions.count" }, { count })
              }
              disabled={reactions.data === undefined || (toggle.isPending && toggle.variables.emoji === emoji)}
              onClick={() => toggle.mutate({ emoji, mine })}
              className={cn("rounded-full", mine && "border-primary bg-primary/10 dark:bg-primary/20")}
            >
              <span aria-hidden="true">{emoji}</span>
              {count > 0 && <span className="tabular-nums">{count}</span>}
            </Button>
          );
        })}
      </div>
      {given.length > 0 && (
        <ul
          aria-label={intl.formatMessage({ id: "memory.reactions.who" })}
          className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground"
        >
          {given.map((reaction) => (
            <li key={reaction.emoji} id={`${id}-${reaction.emoji}`}>
              {intl.formatMessage({ id: "memory.reactions.givers" }, { emoji: reaction.emoji, names: names(reaction.by) })}
            </li>
          ))}
        </ul>
      )}
      {toggle.isError && (
        <p className="text-sm text-destructive" role="alert">
          {intl.formatMessage({ id: "memory.reactions.failed" }, { problem: responseProblem(toggle.error) })}
        </p>
      )}
    </div>
  );
}
