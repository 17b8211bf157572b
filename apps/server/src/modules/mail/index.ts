export { createMailer, MailDeliveryError, type MailMessage, type Mailer } from "./mailer";
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
