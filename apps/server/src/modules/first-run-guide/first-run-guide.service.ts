import type { FirstRunGuide } from "@memory-box/contract";
import { AppError } from "../../errors";
import type { FirstRunGuideRepository } from "./first-run-guide.repository";

/**
 * The first-run guide on home (ADR 0066): shown to each member until they close it, on whichever
 * device; "Show the guide again" in Settings brings it back. Only ever the caller's own.
 */
export class FirstRunGuideService {
  constructor(private readonly deps: { guides: FirstRunGuideRepository; now?: () => Date }) {}

  async read(userId: string): Promise<FirstRunGuide> {
    const row = await this.deps.guides.find(userId);
    if (!row) throw new AppError("not_authenticated");
    return { dismissed_at: row.dismissed_at, role: row.role ?? "member" };
  }

  async change(userId: string, dismissed: boolean): Promise<FirstRunGuide> {
    if (dismissed) await this.deps.guides.dismiss(userId, (this.deps.now?.() ?? new Date()).toISOString());
    else await this.deps.guides.reset(userId);
    return this.read(userId);
  }
}
