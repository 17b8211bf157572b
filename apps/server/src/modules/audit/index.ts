export { AuditLogRepository } from "./audit-log.repository";
export type { AuditEvent } from "./audit-log.repository";
