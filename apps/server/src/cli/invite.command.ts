import { parseArgs } from "node:util";
import type { InvitationRow } from "../db/schema";
import { AuditLogRepository } from "../modules/audit";
import { announceAccessChanged } from "../modules/events";
import { InvitationsRepository, InvitationsService } from "../modules/invitations";
import { type Command, UsageError } from "./command";

/** Recorded as `invited_by` and in the audit log, so the list shows who added whom. */
const operator = "cli";

const usage = [
  "npm run invite -- <email>...         add addresses to the invitation list",
  "npm run invite -- --owner <email>    invite an address as an owner, or make a member one",
  "npm run invite -- --list             show the invitation list",
  "npm run invite -- --revoke <email>   remove an address and end its sessions",
].join("\n");

/** `invite <email>...`, `invite --owner <email>`, `invite --list`, `invite --revoke <email>`. */
export const inviteCommand: Command = {
  usage,

  async run({ args, db, out }) {
    const { values, positionals } = parse(args);
    const service = new InvitationsService({ invitations: new InvitationsRepository(db), audit: new AuditLogRepository(db) });

    if (values.help) {
      out(usage);
    } else if (values.list) {
      if (positionals.length > 0 || values.revoke !== undefined) throw new UsageError("--list takes no addresses.");
      printTable(await service.list(), out);
    } else if (values.owner !== undefined) {
      if (positionals.length > 0 || values.revoke !== undefined) throw new UsageError("--owner takes exactly one address.");
      const [result] = await service.invite([values.owner], operator, "owner");
      await service.setRole(values.owner, "owner", operator);
      const email = result?.email ?? values.owner;
      out(result?.added ? `Invited ${email} as an owner` : `${email} is an owner`);
    } else if (values.revoke !== undefined) {
      if (positionals.length > 0) throw new UsageError("--revoke takes exactly one address.");
      const { email } = await service.revoke(values.revoke, operator);
      // Their open live streams close at once, on every server on this database (ADR 0050).
      await announceAccessChanged(db);
      out(`Revoked ${email}; their sessions have ended.`);
    } else {
      if (positionals.length === 0) throw new UsageError("Give at least one e-mail address to invite.");
      for (const result of await service.invite(positionals, operator)) {
        out(`${result.added ? "Invited" : "Already invited"} ${result.email}`);
      }
    }
  },
};

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      options: {
        list: { type: "boolean" },
        revoke: { type: "string" },
        owner: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    // node:util reports unknown flags and missing values as TypeErrors; they are the operator's to fix.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function printTable(invitations: InvitationRow[], out: (line: string) => void): void {
  if (invitations.length === 0) {
    out("No one is invited yet.");
    return;
  }
  const rows = [
    ["EMAIL", "ROLE", "INVITED AT", "USED AT", "USED BY"],
    ...invitations.map((row) => [row.email, row.role, formatTime(row.invited_at), formatTime(row.used_at), row.used_by ?? "-"]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows)
    out(
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join("  ")
        .trimEnd(),
    );
}

/** Minutes are enough to tell invitations apart; UTC so the list reads the same on every machine. */
function formatTime(iso: string | null): string {
  return iso === null ? "-" : `${iso.slice(0, 16).replace("T", " ")} UTC`;
}
