export { ArchiveManifest, unknownAuthor } from "./archive-format";
export { ArchiveExporter, type ExportSummary } from "./archive-exporter";
export { ArchiveImporter, type ImportProgress, type ImportSummary } from "./archive-importer";
export { ArchiveImports } from "./archive-imports";
export { ArchiveRefusedError } from "./archive-source";
export { archiveLimits, openArchive, type ArchiveFormat } from "./open-archive";
export { ArchiveRepository } from "./archive.repository";
export { archiveRoutes, exportTicketPurpose } from "./archive.routes";
