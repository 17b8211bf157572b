export { createMailer, MailDeliveryError, type Mailer } from "./mailer";
export { renderEmail, renderInvitation, renderNotice } from "./templates";
