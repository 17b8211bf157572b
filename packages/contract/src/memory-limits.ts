/**
 * Limits shared by the form and the server. A module of their own, without zod, so that a screen
 * that only needs a limit (home's filters) does not load the contract's schemas with it.
 */
export const MemoryLimits = {
  titleMaxLength: 200,
  contentMaxLength: 20_000,
  tagMaxLength: 50,
  maxTags: 30,
  maxPhotos: 100,
  pageSizeDefault: 30,
  pageSizeMax: 100,
} as const;
