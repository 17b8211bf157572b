import { AuditLogRepository } from "../modules/audit";
import { createAuthModule } from "../modules/auth";
import { FramesRepository } from "../modules/frames";
import { InvitationsRepository, InvitationsService } from "../modules/invitations";
import { createMailer, templatedMailer } from "../modules/mail";
import { MemberCheck } from "../modules/member-door";
import { type Command, parseCommandArgs, UsageError } from "./command";
import type { ConfiguredCommandContext } from "./service-token.command";

const usage = "npm run mfa -- --reset <email>   turn off two-step verification: remove every authenticator app of the account";

/**
 * `mfa --reset <email>`: for a member who lost their authenticator app and has no owner to ask.
 * The same reset an owner makes from Members: factors gone, sessions back at aal1, the member told
 * by e-mail (or the outbox).
 */
export const mfaCommand = {
  usage,

  async run({ args, db, out, config }: ConfiguredCommandContext) {
    const { values, positionals } = parseCommandArgs(args, ["reset"]);
    if (values.help) {
      out(usage);
      return;
    }
    if (values.reset === undefined || positionals.length > 0) throw new UsageError("Give --reset and one e-mail address.");
    const logger = { info: () => {}, error: (obj: object, msg: string) => out(`${msg} ${JSON.stringify(obj)}`) };
    const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, logger });
    try {
      const audit = new AuditLogRepository(db);
      const auth = await createAuthModule({
        config,
        db,
        mailer: templatedMailer(mailer),
        invitations: new InvitationsService({ invitations: new InvitationsRepository(db), audit }),
        audit,
        sessionLookup: new MemberCheck(db, config.database.engine),
        pairedDevices: new FramesRepository(db, config.database.engine),
      });
      const email = values.reset.trim().toLowerCase();
      const user = await auth.users.findByEmail(email);
      if (!user) throw new UsageError(`No account uses ${email}.`);
      const removed = await auth.factors.resetAll(user.id, "cli");
      out(
        removed === 0
          ? `${email} has no authenticator app; nothing to do.`
          : `Removed ${removed === 1 ? "the authenticator app" : `${removed} authenticator apps`} of ${email}; signing in needs only the password again.`,
      );
    } finally {
      await mailer.close();
    }
  },
} satisfies Command;
