export { currentPeriod, digestHour } from "./digest-period";
export { EmailDigestRepository } from "./email-digest.repository";
export { emailDigestRoutes } from "./email-digest.routes";
export { EmailDigestScheduler, EmailDigestService, unsubscribePath } from "./email-digest.service";
export { issueUnsubscribeToken, readUnsubscribeToken, unsubscribePurpose } from "./unsubscribe-token";
