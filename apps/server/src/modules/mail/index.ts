export { createMailer, MailDeliveryError, type Mailer } from "./mailer";
export { type NoticeData, type NoticeKind, renderEmail, renderInvitation, renderNotice } from "./templates";
