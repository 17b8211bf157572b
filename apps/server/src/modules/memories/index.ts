export { MemoriesRepository } from "./memories.repository";
export { memoriesRoutes } from "./memories.routes";
export { MemoriesService } from "./memories.service";
