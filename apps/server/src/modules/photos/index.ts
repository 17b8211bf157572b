export { keepNoImageCache, renderFrameDerivatives, restrictImageDecoders, type Derivative } from "./image-pipeline";
export { geoPointOf, parseIso6709, readImageLocation } from "./photo-location";
export { PhotosRepository } from "./photos.repository";
export {
  photoAccessRoutes,
  photoObjectRoutes,
  photoReadRoutes,
  receiveOneFile,
  photoUploadRoutes,
  readPhotoAccessCookie,
  renewPhotoAccessWithMemberResponses,
  sendPhotoBytes,
} from "./photos.routes";
export { photoUrl } from "./photo-access";
export { photoLocationsJobKind, PhotosService } from "./photos.service";
export { PhotoFilesReconciler, type FileReconciliation } from "./photo-files.reconciler";
export { derivativeKey, motionKey, originalPhotoKey, photoBucket, webKey } from "./photo-key";
