import { randomUUID } from "node:crypto";
import { defaultEmailDigestPreferences, type EmailDigestPreferences, type EmailUnsubscribed } from "@memory-box/contract";
import { AppError } from "../../errors";
import { messagesFor } from "../../lib/languages";
import { type Mailer, renderDigest } from "../mail";
import { currentPeriod } from "./digest-period";
import type { DigestRecipient, EmailDigestRepository } from "./email-digest.repository";
import { issueUnsubscribeToken, readUnsubscribeToken } from "./unsubscribe-token";

export interface DigestLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface EmailDigestServiceDeps {
  digests: EmailDigestRepository;
  mailer: Mailer;
  /** The server's signing secret (the one of photo cookies and export tickets): signs unsubscribe links. */
  secret: Buffer;
  /** The web app (AUTH_SITE_URL): memory pages and the unsubscribe page. */
  siteUrl: string;
  /** Where the API is reached (PUBLIC_URL): the one-click URL of the List-Unsubscribe header. */
  publicUrl: string;
  log: DigestLog;
  now?: () => Date;
  /** How long a claimed digest is held before another process may take it (default 5 min: SMTP gives up within 40 s). */
  leaseMs?: number;
}

/** The path of the one-click unsubscribe URL (RFC 8058), under PUBLIC_URL. */
export const unsubscribePath = "/api/v1/notifications/email/unsubscribe";
/** Memories listed in one digest; the rest are counted ("…and 4 more"). */
const listedMemories = 50;
/** A failed send is tried again after 5 minutes, doubling, at most every 6 hours: never dropped. */
const retryDelayMs = (failures: number) => Math.min(5 * 60_000 * 2 ** failures, 6 * 3600_000);

export interface DigestRun {
  sent: number;
  /** Periods due with nothing a partner added: done without a mail. */
  empty: number;
  failed: number;
}

/**
 * The e-mail digest's rules (ADR 0060): a member's choice, the periods that fall due on their
 * clock, sending each period's digest once however many processes run, and one-click unsubscribe.
 */
export class EmailDigestService {
  /** This process, as the owner of the digests it claims. */
  private readonly owner = randomUUID();
  private readonly leaseMs: number;

  constructor(private readonly deps: EmailDigestServiceDeps) {
    this.leaseMs = deps.leaseMs ?? 5 * 60_000;
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async preferences(userId: string): Promise<EmailDigestPreferences> {
    const row = await this.deps.digests.find(userId);
    return row ? { digest: row.frequency, time_zone: row.time_zone } : defaultEmailDigestPreferences;
  }

  /**
   * Saves the member's choice. Switching the digest on starts it afresh: the first one covers what
   * partners add from now on, and the period running now counts as done, so it first leaves at the
   * next 08:00 (daily) or Monday 08:00 (weekly). Changing how often or the time zone while it is on
   * keeps what the next digest covers.
   */
  async setPreferences(userId: string, choice: EmailDigestPreferences): Promise<EmailDigestPreferences> {
    const now = this.now();
    const before = await this.deps.digests.find(userId);
    const start =
      choice.digest !== "off" && (before === undefined || before.frequency === "off")
        ? { since: now.toISOString(), period: currentPeriod(choice.digest, choice.time_zone, now) }
        : undefined;
    await this.deps.digests.save(userId, { frequency: choice.digest, timeZone: choice.time_zone }, now.toISOString(), start);
    return { digest: choice.digest, time_zone: choice.time_zone };
  }

  /** One-click unsubscribe: the member the token names gets no more digests. */
  async unsubscribe(token: string): Promise<EmailUnsubscribed> {
    const memberId = readUnsubscribeToken(token, this.deps.secret);
    if (memberId === null) throw new AppError("unsubscribe_link_invalid");
    if (await this.deps.digests.turnOff(memberId, this.now().toISOString()))
      this.deps.log.info({ userId: memberId }, "e-mail digest turned off by its unsubscribe link");
    return { digest: "off" };
  }

  /** The web page that asks the member to confirm, then posts the one-click unsubscribe. */
  unsubscribePageUrl(token: string): string {
    return `${this.deps.siteUrl}/unsubscribe?token=${encodeURIComponent(token)}`;
  }

  /**
   * Sends every digest that is due now: for each member whose period has come on their clock,
   * claims it (one conditional update: of several processes, one wins), sends what partners added
   * since the last digest, and marks the period done. A failed send gives the claim back with a
   * backoff; a process that dies holding one leaves it to expire, and the next tick anywhere takes
   * it again. What the digest covers only grows meanwhile, so nothing is lost.
   */
  async runDue(): Promise<DigestRun> {
    const run: DigestRun = { sent: 0, empty: 0, failed: 0 };
    const now = this.now();
    for (const recipient of await this.deps.digests.recipients(now.toISOString())) {
      const period = periodOf(recipient, now);
      if (period === undefined) {
        // A zone the runtime no longer knows (the PUT checked it): this member waits, the others do not.
        this.deps.log.warn({ userId: recipient.user_id, timeZone: recipient.time_zone }, "e-mail digest's time zone unknown");
        continue;
      }
      if (!isDue(recipient, period, now)) continue;
      const outcome = await this.sendPeriod(recipient, period, now);
      if (outcome !== undefined) run[outcome] += 1;
    }
    return run;
  }

  private async sendPeriod(
    recipient: DigestRecipient,
    period: string,
    now: Date,
  ): Promise<"sent" | "empty" | "failed" | undefined> {
    const { digests } = this.deps;
    const at = now.toISOString();
    const claimed = await digests.claim(recipient, period, this.owner, at, new Date(now.getTime() + this.leaseMs).toISOString());
    if (!claimed) return undefined;
    try {
      const additions = await digests.partnersAdditions(recipient.user_id, claimed.since, at, listedMemories);
      if (additions.authors.length > 0) await this.deps.mailer.send(this.compose(recipient, period, additions));
      await digests.complete(recipient.user_id, this.owner, period, at, at);
      return additions.authors.length > 0 ? "sent" : "empty";
    } catch (error) {
      const retryAt = new Date(now.getTime() + retryDelayMs(recipient.attempts)).toISOString();
      this.deps.log.warn(
        { err: error, userId: recipient.user_id, period, retryAt },
        "e-mail digest not sent; trying again later",
      );
      await digests.fail(recipient.user_id, this.owner, retryAt, at).catch((failure: unknown) => {
        // The claim then expires on its own and the digest is taken again after the lease.
        this.deps.log.warn({ err: failure, userId: recipient.user_id }, "could not give an e-mail digest's claim back");
      });
      return "failed";
    }
  }

  private compose(
    recipient: DigestRecipient,
    period: string,
    { authors, memories }: Awaited<ReturnType<EmailDigestRepository["partnersAdditions"]>>,
  ) {
    const { siteUrl, publicUrl, secret } = this.deps;
    const token = issueUnsubscribeToken(recipient.user_id, secret);
    const rendered = renderDigest(
      {
        schedule: recipient.frequency,
        authors: authors.map((author) => ({
          name: author.name ?? author.email ?? "?",
          count: author.count,
          memories: memories
            .filter((memory) => memory.author_id === author.author_id)
            .map((memory) => ({
              title: memory.title,
              date: memory.memory_date,
              link: `${siteUrl}/memory/${encodeURIComponent(memory.id)}`,
            })),
        })),
        siteLink: siteUrl,
        unsubscribeLink: this.unsubscribePageUrl(token),
      },
      messagesFor(recipient.locale),
    );
    return {
      to: recipient.email,
      ...rendered,
      headers: {
        "List-Unsubscribe": `<${publicUrl}${unsubscribePath}?token=${encodeURIComponent(token)}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      },
      // The same for a period's digest sent again after a crash: receivers that drop duplicates drop it.
      messageId: `digest.${recipient.user_id}.${period}@${new URL(publicUrl).hostname}`,
    };
  }
}

function periodOf(recipient: DigestRecipient, now: Date): string | undefined {
  try {
    return currentPeriod(recipient.frequency, recipient.time_zone, now);
  } catch {
    return undefined;
  }
}

/** Whether a digest is owed for `period` and nothing holds it back (a live claim, a pending retry). */
function isDue(recipient: DigestRecipient, period: string, now: Date): boolean {
  if (recipient.period !== null && recipient.period >= period) return false;
  if (recipient.claimed_until !== null && Date.parse(recipient.claimed_until) >= now.getTime()) return false;
  return recipient.retry_after === null || Date.parse(recipient.retry_after) <= now.getTime();
}

/**
 * Runs `runDue` at start and every `intervalMs` (a minute), one run at a time, in the background:
 * no request waits on SMTP. Stopping waits for a run under way, so a sent digest is marked done
 * before the database closes.
 */
export class EmailDigestScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly service: EmailDigestService,
    private readonly log: DigestLog,
    private readonly intervalMs = 60_000,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.intervalMs).unref();
    void this.tick();
  }

  /** One run now, unless one is under way (then that one). */
  tick(): Promise<void> {
    this.running ??= this.service
      .runDue()
      .then(
        (run) => {
          if (run.sent + run.failed > 0) this.log.info({ ...run }, "e-mail digests sent");
        },
        (error: unknown) => this.log.warn({ err: error }, "e-mail digest run failed"),
      )
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
