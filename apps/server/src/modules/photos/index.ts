export { restrictImageDecoders } from "./image-pipeline";
export { PhotosRepository } from "./photos.repository";
export { photoObjectRoutes, photoUploadRoutes } from "./photos.routes";
export { PhotosService } from "./photos.service";
