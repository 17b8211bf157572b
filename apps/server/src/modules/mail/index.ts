export { createMailer, MailDeliveryError, type Mailer } from "./mailer";
export { renderEmail } from "./templates";
