import { reactionEmojis, type Memory } from "@memory-box/contract";

import { Button } from "@/components/ui/button";
import { useReactions, useToggleReaction } from "@/features/memories/api/reactions";
import { responseProblem } from "@/features/memories/utils/comment-problems";
import { cn } from "@/lib/utils";
import { useIntl } from "@/lib/intl";

/**
 * The six reactions under a memory, each a toggle showing how many members chose it; pressed when
 * the member is one of them. Until the member's own are known, the memory's counts show, disabled.
 */
export function ReactionBar({ memory }: { memory: Pick<Memory, "id" | "reactions"> }) {
  const intl = useIntl();
  const reactions = useReactions(memory.id);
  const toggle = useToggleReaction(memory.id);
  const shown = reactions.data ?? memory.reactions.map((reaction) => ({ ...reaction, mine: false }));

  return (
    <div className="flex flex-col gap-2">
      <div role="group" aria-label={intl.formatMessage({ id: "memory.reactions.label" })} className="flex flex-wrap gap-2">
        {reactionEmojis.map((emoji) => {
          const reaction = shown.find((each) => each.emoji === emoji);
          const count = reaction?.count ?? 0;
          const mine = reaction?.mine ?? false;
          return (
            <Button
              key={emoji}
              type="button"
              variant="outline"
              size="sm"
              aria-label={intl.formatMessage({ id: "memory.reactions.react" }, { emoji })}
              aria-pressed={mine}
              title={intl.formatMessage({ id: "memory.reactions.count" }, { count })}
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
      {toggle.isError && (
        <p className="text-sm text-destructive" role="alert">
          {intl.formatMessage({ id: "memory.reactions.failed" }, { problem: responseProblem(toggle.error) })}
        </p>
      )}
    </div>
  );
}
