export { BoxRepository } from "./box.repository";
export { boxRoutes } from "./box.routes";
export { BoxService } from "./box.service";
