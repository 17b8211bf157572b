export { BackupService, restoreSnapshot, type BackupSummary } from "./backup.service";
export { BackupScheduler } from "./backup-scheduler";
