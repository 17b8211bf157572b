export { IdempotencyRepository } from "./idempotency.repository";
export { IdempotencyService } from "./idempotency.service";
export { idempotentCreates, type IdempotentCreateHooks } from "./idempotent-creates";
