import type { Device } from "@memory-box/contract";
import type { SessionRow } from "../../db/schema";
import { AppError } from "../../errors";
import type { AuditLogRepository } from "../audit";
import { describeUserAgent } from "../auth";

/** The sessions table as the devices list reads it (auth's sessions repository). */
export interface DeviceSessions {
  listOfUser(userId: string): Promise<SessionRow[]>;
  deleteOfUsersDevice(userId: string, sessionId: string): Promise<boolean>;
}

/**
 * The member's own signed-in devices (sessions): what they are, as far as the user agent tells,
 * and signing one out. Only the caller's own sessions are ever read or ended here.
 */
export class DevicesService {
  constructor(
    private readonly deps: {
      sessions: DeviceSessions;
      audit: AuditLogRepository;
      now?: () => Date;
    },
  ) {}

  /**
   * The member's own signed-in devices. A session an app or a frame holds (ADR 0075, 0076) is not
   * one: it is listed, and ended, where it was given (Settings → Apps, Settings → Frames).
   */
  async list(userId: string, currentSessionId: string): Promise<Device[]> {
    const sessions = await this.deps.sessions.listOfUser(userId);
    return sessions
      .filter((session) => session.oauth_client_id === null)
      .map((session) => presentDevice(session, currentSessionId))
      .sort((a, b) => Number(b.current) - Number(a.current) || b.last_active_at.localeCompare(a.last_active_at));
  }

  /** Ends one of the caller's sessions; someone else's, or one already ended, is 404 `device_not_found`. */
  async signOut(caller: { id: string; email: string }, sessionId: string, ip: string | null): Promise<void> {
    if (!(await this.deps.sessions.deleteOfUsersDevice(caller.id, sessionId))) throw new AppError("device_not_found");
    await this.deps.audit.record(
      { action: "user.signed_out", actorId: caller.id, actorEmail: caller.email, ip, detail: { scope: "device", sessionId } },
      this.deps.now?.() ?? new Date(),
    );
  }
}

function presentDevice(session: SessionRow, currentSessionId: string): Device {
  const { browser, system } = describeUserAgent(session.user_agent);
  return {
    id: session.id,
    browser,
    system,
    signed_in_at: session.created_at,
    last_active_at: session.refreshed_at ?? session.created_at,
    current: session.id === currentSessionId,
  };
}
