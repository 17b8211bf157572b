export { MemoriesRepository, type MemoryRecord, type NewMemory, placeOf, type StoredPlace } from "./memories.repository";
export { memoriesRoutes } from "./memories.routes";
export { MemoriesService } from "./memories.service";
export { windowMonthDays, windowStart, yearsAgo } from "./on-this-day";
