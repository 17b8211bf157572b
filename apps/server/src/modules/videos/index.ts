export {
  detectVideoContainer,
  inspectVideo,
  maxVideoPixels,
  maxVideoSide,
  type InspectOptions,
  type VideoContainer,
  type VideoInfo,
} from "./video-inspection";
export { renderVideoPoster, type VideoPoster } from "./video-poster";
export { resolveVideoTools, runTool, type VideoTools } from "./video-tools";
export {
  remuxForWeb,
  renditionSize,
  transcodeWebRendition,
  webRenditionArgs,
  webRenditionReasons,
  type RenditionReason,
  type TranscodeOptions,
} from "./web-rendition";
export { isVideoFile, MediaIntake } from "./media-intake";
export {
  maxMotionSeconds,
  VideosService,
  webCopyJobKind,
  type StoredMotion,
  type StoredVideoFiles,
  type VideoProgress,
  type VideosServiceDeps,
} from "./videos.service";
export { videosRoutes } from "./videos.routes";
