import type { AuthMailer } from "../auth";
import type { Mailer } from "./mailer";
import { renderEmail, renderNotice } from "./templates";

/**
 * The mailer the auth service is given: auth names the mail and its data, this renders the
 * template and sends it to the address in the data. A mail the server does not take rejects
 * with MailDeliveryError (`email_send_failed`).
 */
export function templatedMailer(mailer: Mailer): AuthMailer {
  return {
    sendLink: (kind, data) =>
      mailer.send({ to: data.email, ...renderEmail(kind, data), ...(data.link ? { link: data.link } : {}) }),
    sendNotice: (kind, data) => mailer.send({ to: data.email, ...renderNotice(kind, data) }),
  };
}
