import { messagesFor } from "../../lib/languages";
import type { AuthMailer } from "../auth";
import type { Mailer } from "./mailer";
import { renderEmail, renderNotice } from "./templates";

/**
 * The mailer the auth service is given: auth names the mail and its data, this renders the
 * template and hands it to the mailer (the server's outbox, ADR 0077: queued, in auth's transaction
 * when it gives one). Written in the member's chosen language, else in the language of the request
 * that caused the mail, else English (ADR 0049).
 */
export function templatedMailer(mailer: Mailer): AuthMailer {
  return {
    sendLink: (kind, data, transaction) =>
      mailer.send(
        {
          kind,
          to: data.email,
          ...renderEmail(kind, data, messagesFor(data.locale)),
          ...(data.link ? { link: data.link } : {}),
        },
        transaction ? { transaction } : {},
      ),
    sendNotice: (kind, data) =>
      mailer.send({ kind: `notice.${kind}`, to: data.email, ...renderNotice(kind, data, messagesFor(data.locale)) }),
  };
}
