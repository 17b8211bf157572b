/**
 * Resumable uploads (tus 1.0.0, ADR 0056): where they go, and the header with which the server
 * answers the HEAD of a finished upload of the caller's: the id of the media it became, so a
 * client whose last answer was lost reads that media (`GET /api/v1/photos/{id}`) instead of
 * sending the file again.
 */
export const resumableUploadsPath = "/api/v1/uploads";
export const finishedUploadMediaHeader = "memory-box-media";
