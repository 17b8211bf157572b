export { FirstRunGuideRepository } from "./first-run-guide.repository";
export { firstRunGuideRoutes } from "./first-run-guide.routes";
export { FirstRunGuideService } from "./first-run-guide.service";
