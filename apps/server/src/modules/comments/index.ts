export { CommentsRepository } from "./comments.repository";
export { commentsRoutes } from "./comments.routes";
export { CommentsService } from "./comments.service";
