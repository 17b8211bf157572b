export { IdempotencyRepository } from "./idempotency.repository";
export { IdempotencyService } from "./idempotency.service";
export { type CreatedAnswer, type IdempotentCreate, type IdempotentCreateHooks, idempotentCreates } from "./idempotent-creates";
