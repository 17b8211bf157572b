export { createMailer, MailDeliveryError, type Mailer } from "./mailer";
export { renderEmail, renderNotice } from "./templates";
