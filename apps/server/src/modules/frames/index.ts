export { FrameCheck, frameAuthenticator } from "./frame-door";
export { FramesRepository } from "./frames.repository";
export { frameRoutes, framesRoutes } from "./frames.routes";
export { FramesService } from "./frames.service";
