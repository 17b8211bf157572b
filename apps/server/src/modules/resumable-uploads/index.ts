export { resumableUploadsRoutes } from "./resumable-uploads.routes";
export {
  type CompletedUpload,
  type CompletionPort,
  ResumableUploadsService,
  sizeInWords,
  uploadIdleLifetimeMs,
  uploadsPath,
} from "./resumable-uploads.service";
