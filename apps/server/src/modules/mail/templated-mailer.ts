import { messagesFor } from "../../lib/languages";
import type { AuthMailer } from "../auth";
import type { Mailer } from "./mailer";
import { renderEmail, renderNotice } from "./templates";

/**
 * The mailer the auth service is given: auth names the mail and its data, this renders the
 * template and sends it to the address in the data. A mail the server does not take rejects
 * with MailDeliveryError (`email_send_failed`). Written in the member's chosen language, else in
 * the language of the request that caused the mail, else English (ADR 0049).
 */
export function templatedMailer(mailer: Mailer): AuthMailer {
  return {
    sendLink: (kind, data) =>
      mailer.send({
        to: data.email,
        ...renderEmail(kind, data, messagesFor(data.locale)),
        ...(data.link ? { link: data.link } : {}),
      }),
    sendNotice: (kind, data) => mailer.send({ to: data.email, ...renderNotice(kind, data, messagesFor(data.locale)) }),
  };
}
