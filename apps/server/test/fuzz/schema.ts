import fc from "fast-check";
import { anyText, banDurations, encode, type FuzzContext, nestedJsonText } from "./arbitraries";

/** The part of JSON Schema (as the app's OpenAPI document writes it) the generator understands. */
export interface JsonSchema {
  type?: string | string[];
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

/** A parameter of an operation in the OpenAPI document. */
export interface OpenApiParameter {
  in: string;
  name: string;
  schema?: JsonSchema;
}

/**
 * A JSON value nested thousands deep, written out as text when the body is serialised: built as
 * objects it would overflow the test's own stack before it reached the server.
 */
export class DeepJson {
  constructor(
    readonly depth: number,
    readonly kind: "object" | "array",
  ) {}

  text(): string {
    return nestedJsonText(this.depth, this.kind);
  }
}

/** JSON.stringify that writes DeepJson values as their text. */
export function toJson(value: unknown): string {
  if (value instanceof DeepJson) return value.text();
  if (Array.isArray(value)) return `[${value.map((item) => toJson(item)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${toJson(item)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const deepValue = fc
  .record({ depth: fc.integer({ min: 500, max: 20_000 }), kind: fc.constantFrom<"object" | "array">("object", "array") })
  .map(({ depth, kind }) => new DeepJson(depth, kind));

/** Candidates by property name: what a client that means well (or almost) would send. */
function hintsFor(name: string, context: FuzzContext): fc.Arbitrary<unknown> | undefined {
  const lower = name.toLowerCase();
  if (lower.includes("email"))
    return fc.oneof(
      fc.emailAddress(),
      fc.constantFrom(...context.knownEmails),
      fc.constantFrom("a@b", "@x.test", "a@@x.test", "a\u0000@x.test", " FUZZ@memory-box.test ", `${"a".repeat(300)}@x.test`),
    );
  if (lower.includes("password"))
    return fc.constantFrom("correct horse battery", "short", "", "x".repeat(73), "x".repeat(5000), "pässwörd-😀-long-enough");
  if (lower === "type")
    return fc.constantFrom(
      "signup",
      "invite",
      "magiclink",
      "recovery",
      "email_change",
      "email",
      "sms",
      "phone_change",
      "reauthentication",
      "new_email",
    );
  if (lower.includes("redirect"))
    return fc.constantFrom(
      "http://localhost:8080/",
      "http://localhost:8080/#x",
      "https://evil.example/",
      "javascript:alert(1)",
      "//evil.example",
      "http://[::1",
      "",
    );
  if (lower === "memory_date")
    return fc.oneof(
      fc.date({ noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
      fc.constantFrom("2024-02-29", "2023-02-29", "0000-01-01", "9999-12-31", "2024-13-01"),
    );
  if (lower === "photo_ids")
    return fc.oneof(
      fc.constant([]),
      fc.subarray(context.photoIds),
      fc.array(fc.oneof(fc.uuid(), fc.constantFrom(...context.knownIds)), { maxLength: 4 }),
    );
  if (lower === "id" || lower === "name")
    return fc.oneof(fc.stringMatching(/^[a-z0-9][a-z0-9._-]{1,20}$/), fc.constantFrom(...context.knownIds));
  if (lower === "ban_duration") return fc.constantFrom(...banDurations);
  if (lower === "role") return fc.constantFrom("authenticated", "service_role", "supabase_admin", "anon", "");
  if (lower.includes("code_challenge_method")) return fc.constantFrom("s256", "S256", "plain", "none");
  if (lower.includes("code_challenge") || lower.includes("verifier")) return fc.stringMatching(/^[A-Za-z0-9._~-]{43,128}$/);
  if (lower === "allowed_mime_types")
    return fc.array(fc.constantFrom("image/png", "image/*", "*/*", "", "text/html"), { maxLength: 3 });
  return undefined;
}

const numbers = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    1,
    -1,
    1.5,
    2 ** 31 - 1,
    2 ** 31,
    2 ** 32,
    2 ** 53 - 1,
    2 ** 53,
    2 ** 63,
    1e308,
    -1e308,
    Number.MIN_VALUE,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A value of some other type than the schema asks for. */
const wrongType = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  numbers,
  anyText,
  fc.constant([]),
  fc.constant({}),
  fc.array(anyText, { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 2 }),
);

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  if (schema.properties) return ["object"];
  if (schema.items) return ["array"];
  return [];
}

function stringFor(schema: JsonSchema, context: FuzzContext, valid: boolean): fc.Arbitrary<unknown> {
  const max = schema.maxLength;
  const withinLimits = fc
    .string({ minLength: Math.max(schema.minLength ?? 0, valid ? 1 : 0), maxLength: Math.min(max ?? 40, 40) })
    .filter((text) => !valid || text.trim() !== "");
  if (valid) return schema.format === "uuid" ? fc.uuid() : withinLimits;
  const options: fc.Arbitrary<unknown>[] = [anyText, withinLimits];
  if (max !== undefined)
    options.push(fc.constantFrom("x".repeat(max), "x".repeat(max + 1), " ".repeat(max + 1), `${"é".repeat(max)}`));
  if (schema.minLength) options.push(fc.constant("x".repeat(schema.minLength - 1)));
  if (schema.format === "uuid") options.push(fc.uuid(), fc.constantFrom(...context.knownIds));
  if (schema.pattern) {
    try {
      options.push(fc.stringMatching(new RegExp(schema.pattern)));
    } catch {
      // A pattern fast-check cannot generate from: the other options still apply.
    }
  }
  return fc.oneof(...options);
}

function numberFor(schema: JsonSchema, valid: boolean): fc.Arbitrary<unknown> {
  if (valid) {
    const low =
      typeof schema.exclusiveMinimum === "number"
        ? schema.exclusiveMinimum + 1
        : schema.exclusiveMinimum === true
          ? (schema.minimum ?? 0) + 1
          : (schema.minimum ?? 0);
    return fc.integer({ min: low, max: Math.max(low, Math.min(schema.maximum ?? 1000, 1000)) });
  }
  const bounds = [
    schema.minimum,
    schema.maximum,
    typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum : undefined,
    typeof schema.exclusiveMaximum === "number" ? schema.exclusiveMaximum : undefined,
  ].filter((bound): bound is number => bound !== undefined);
  const edges = bounds.flatMap((bound) => [bound - 1, bound, bound + 1]);
  return edges.length > 0 ? fc.oneof(numbers, fc.constantFrom(...edges)) : numbers;
}

/**
 * Values for a schema: mostly of the right type and near its limits (so requests get past
 * validation into the services and the database), sometimes of a wrong type, null, or nested
 * thousands deep where the schema takes any JSON.
 */
function valueFor(schema: JsonSchema, name: string, context: FuzzContext, level = 0, valid = false): fc.Arbitrary<unknown> {
  const options: fc.WeightedArbitrary<unknown>[] = [];
  const hint = hintsFor(name, context);
  if (hint) options.push({ weight: valid ? 12 : 4, arbitrary: hint });
  if (!valid) options.push({ weight: 1, arbitrary: wrongType });
  if (schema.nullable) options.push({ weight: 1, arbitrary: fc.constant(null) });
  if (schema.enum && schema.enum.length > 0) options.push({ weight: 4, arbitrary: fc.constantFrom(...schema.enum) });
  for (const alternative of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])])
    options.push({ weight: 2, arbitrary: valueFor(alternative, name, context, level, valid) });

  for (const type of typesOf(schema)) {
    switch (type) {
      case "string":
        options.push({ weight: 4, arbitrary: stringFor(schema, context, valid) });
        break;
      case "integer":
      case "number":
        options.push({ weight: 4, arbitrary: numberFor(schema, valid) });
        break;
      case "boolean":
        options.push({ weight: 4, arbitrary: fc.boolean() });
        break;
      case "null":
        options.push({ weight: 2, arbitrary: fc.constant(null) });
        break;
      case "array": {
        const item = schema.items ? valueFor(schema.items, name, context, level + 1, valid) : fc.jsonValue({ maxDepth: 2 });
        options.push({ weight: 4, arbitrary: fc.array(item, { maxLength: Math.min(schema.maxItems ?? 5, 5) }) });
        if (schema.maxItems !== undefined && !valid) {
          const limit = schema.maxItems;
          options.push({
            weight: 1,
            arbitrary: fc
              .tuple(item, fc.constantFrom(limit, limit + 1))
              .map(([value, count]) => Array.from({ length: count }, () => value)),
          });
        }
        break;
      }
      case "object":
        options.push({
          weight: 4,
          arbitrary: level > 3 ? fc.jsonValue({ maxDepth: 1 }) : objectFor(schema, context, level + 1, valid),
        });
        break;
      default:
        break;
    }
  }
  // `{}` in a schema means any JSON: metadata, mostly.
  if (typesOf(schema).length === 0 && !schema.anyOf && !schema.oneOf)
    options.push(
      { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
      ...(valid ? [] : [{ weight: 1, arbitrary: deepValue }]),
    );
  return fc.oneof(...options);
}

/**
 * An object for an object schema: required keys mostly present, optional ones sometimes, extras
 * when allowed. `valid` keeps every value to its type and limits (as far as the schema tells), so
 * a good share of requests get through validation to the services and the database.
 */
export function objectFor(
  schema: JsonSchema,
  context: FuzzContext,
  level = 0,
  valid = false,
): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  const withRequired = fc.record(
    Object.fromEntries(names.map((name) => [name, valueFor(properties[name]!, name, context, level, valid)])),
    { requiredKeys: (schema.required ?? []).filter((name) => names.includes(name)) },
  );
  if (valid) return withRequired;
  const record = fc.record(Object.fromEntries(names.map((name) => [name, valueFor(properties[name]!, name, context, level)])), {
    requiredKeys: [],
  });
  const openEnded = schema.additionalProperties !== false;
  const extra = openEnded
    ? fc.dictionary(
        fc.oneof(
          fc.constantFrom("full_name", "avatar_url", "x", "__proto__", "constructor", "toString"),
          fc.string({ maxLength: 8 }),
        ),
        typeof schema.additionalProperties === "object" && typesOf(schema.additionalProperties).length > 0
          ? valueFor(schema.additionalProperties, "", context, level + 1)
          : fc.oneof({ weight: 6, arbitrary: fc.jsonValue({ maxDepth: 3 }) }, { weight: 1, arbitrary: deepValue }),
        { maxKeys: 3 },
      )
    : fc.constant({});
  return fc
    .tuple(
      fc.oneof({ weight: 3, arbitrary: withRequired }, { weight: 1, arbitrary: record }),
      fc.oneof(
        { weight: 3, arbitrary: fc.constant({}) },
        { weight: openEnded ? 2 : 1, arbitrary: extra.map((value) => value as Record<string, unknown>) },
      ),
      fc.option(fc.tuple(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 })), { freq: 8 }),
    )
    .map(([base, more, stray]) => ({ ...base, ...more, ...(stray && !openEnded ? { [stray[0]]: stray[1] } : {}) }));
}

/** A query string from the operation's declared query parameters, with values near and past their limits. */
export function queryFor(parameters: OpenApiParameter[], context: FuzzContext): fc.Arbitrary<string> {
  const query = parameters.filter((parameter) => parameter.in === "query");
  if (query.length === 0) return fc.constant("");
  return fc
    .record(
      Object.fromEntries(query.map((parameter) => [parameter.name, valueFor(parameter.schema ?? {}, parameter.name, context)])),
      { requiredKeys: [] },
    )
    .map((values) => {
      const pairs = Object.entries(values).flatMap(([name, value]) =>
        Array.isArray(value) ? value.map((item) => [name, item] as const) : [[name, value] as const],
      );
      const text = pairs
        .map(([name, value]) => `${encode(name)}=${encode(typeof value === "string" ? value : toJson(value))}`)
        .join("&");
      return text === "" ? "" : `?${text}`;
    });
}

/**
 * Values at the edges of what a field's type allows, each of which has broken a server
 * somewhere: NUL (PostgreSQL refuses it in text), lone surrogates, integers past 32 bits, strings
 * far past their limit, JSON nested past the stack. For a sweep of every field of every route.
 */
export function poisonsFor(schema: JsonSchema | undefined, name = ""): unknown[] {
  const types = schema ? typesOf(schema) : [];
  const poisons: unknown[] = [];
  // Dates at the ends of the calendar: PostgreSQL's date has no year 0, JavaScript's Date has one.
  if (name.includes("date")) poisons.push("0000-01-01", "0001-01-01", "9999-12-31", "2024-02-30");
  if (types.includes("string") || types.length === 0)
    poisons.push("a\u0000b", "\ud800", "\u202e\u0000", "x".repeat(Math.max((schema?.maxLength ?? 0) + 1, 70_000)));
  if (types.includes("integer") || types.includes("number")) poisons.push(2 ** 31, 2 ** 53 - 1, 1e308, -1, 1.5);
  if (types.includes("array"))
    poisons.push(
      ["a\u0000b"],
      Array.from({ length: 1000 }, (_, i) => `item${i}`),
      [new DeepJson(3000, "array")],
    );
  if (types.includes("object") || types.length === 0)
    poisons.push(
      { "a\u0000b": "c\u0000d", full_name: "a\u0000b" },
      new DeepJson(3000, "object"),
      new DeepJson(12_000, "object"),
      Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, "v".repeat(100)])),
    );
  if (types.includes("boolean")) poisons.push("true", 1);
  return poisons;
}
