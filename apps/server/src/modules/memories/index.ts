export { MemoriesRepository, type MemoryRecord } from "./memories.repository";
export { memoriesRoutes } from "./memories.routes";
export { MemoriesService } from "./memories.service";
