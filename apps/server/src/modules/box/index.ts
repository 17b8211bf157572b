export { BoxRepository } from "./box.repository";
export { boxRoutes } from "./box.routes";
export { BoxService, latestTogetherSince } from "./box.service";
