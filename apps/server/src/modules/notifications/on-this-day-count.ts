import { type MemoriesRepository, windowMonthDays, windowStart, yearsAgo } from "../memories";

/** Candidates looked at: far more than a morning's notification needs to say "some". */
const maxCandidates = 200;

/**
 * How many memories of earlier years "On this day" shows for `day`, by the same calendar as the
 * page (memories' on-this-day.ts): the notification promises only what the page will show.
 */
export function onThisDayCounter(memories: Pick<MemoriesRepository, "byMonthDay">, windowDays: number) {
  return async (day: string): Promise<number> => {
    const candidates = await memories.byMonthDay(windowMonthDays(day, windowDays), windowStart(day, windowDays), maxCandidates);
    return candidates.filter((candidate) => yearsAgo(candidate.memory_date, day, windowDays) !== undefined).length;
  };
}
