export { CommentsRepository } from "./comments.repository";
export { commentsRoutes } from "./comments.routes";
export { type AddedResponse, CommentsService } from "./comments.service";
