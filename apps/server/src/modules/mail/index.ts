export { createMailer, MailDeliveryError, type MailMessage, type Mailer, type MailSendOptions } from "./mailer";
export { defaultMailBackoff, type MailHealth, MailOutbox, type MailOutboxOptions } from "./mail-outbox";
export { MailOutboxRepository } from "./mail-outbox.repository";
export { MailSeal } from "./mail-seal";
export { templatedMailer } from "./templated-mailer";
export {
  type DigestData,
  type NoticeData,
  type NoticeKind,
  renderDigest,
  renderEmail,
  renderInvitation,
  renderNotice,
} from "./templates";
