export { createMailer, MailDeliveryError, type Mailer } from "./mailer";
export { templatedMailer } from "./templated-mailer";
export { type NoticeData, type NoticeKind, renderEmail, renderInvitation, renderNotice } from "./templates";
