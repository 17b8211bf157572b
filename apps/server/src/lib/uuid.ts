const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is written as a UUID: checked before an id reaches a query (PostgreSQL's uuid columns refuse anything else). */
export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}
