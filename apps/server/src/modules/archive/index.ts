export { ArchiveManifest, unknownAuthor } from "./archive-format";
export { ArchiveExporter, type ExportSummary } from "./archive-exporter";
export { ArchiveRepository } from "./archive.repository";
export { archiveRoutes, exportTicketPurpose } from "./archive.routes";
