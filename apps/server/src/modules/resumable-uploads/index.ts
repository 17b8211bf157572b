export { resumableUploadsRoutes } from "./resumable-uploads.routes";
export { ResumableUploadsService } from "./resumable-uploads.service";
