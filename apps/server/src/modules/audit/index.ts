export { AuditLogRepository } from "./audit-log.repository";
