import { type ErrorCode, errorCatalogue } from "@memory-box/contract";
import { defaultLocale } from "@memory-box/messages";
import { serverMessages, type ServerMessageId } from "@memory-box/messages/server";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { z, ZodError } from "zod";

export interface FieldProblem {
  path: string;
  message: string;
}

export interface AppErrorOptions extends ErrorOptions {
  /** Another status than the catalogue's, where a protocol fixes one for this call site. */
  status?: number;
  /** Another message than the catalogue's default. */
  message?: string;
  /**
   * Another message than the catalogue's default, as a text of the server's catalogue
   * (errors.json, `errorText.*`): English as the message, and said in the asker's language.
   */
  text?: ErrorText;
  /** The fields at fault, for validation errors. */
  details?: FieldProblem[];
  /** The schema's issue behind each of `details`, where a schema found it: said in other languages too. */
  issues?: readonly (SchemaIssue | undefined)[];
  /** Fields the error body carries beside code and message (Supabase Auth's `weak_password`). */
  extra?: Record<string, unknown>;
  /** Response headers the answer carries in every envelope (`Retry-After`). */
  headers?: Record<string, string>;
}

/** What a schema (zod) found wrong, as its error map takes it: the code and its parameters. */
export type SchemaIssue = { code: string } & Record<string, unknown>;

/** A text of the server's catalogue, with its placeholders' values. */
export interface ErrorText {
  id: ServerMessageId;
  values?: Record<string, string | number>;
}

const appErrorBrand = Symbol.for("memory-box.AppError");

/**
 * The one error type the HTTP layer answers in detail. Its code comes from the contract's
 * catalogue, which gives the status and a default message; each API's error renderer wraps it
 * in that API's envelope. Anything else that is thrown is classified (`classifyError`).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly details: FieldProblem[] | undefined;
  readonly issues: readonly (SchemaIssue | undefined)[] | undefined;
  readonly extra: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;
  /**
   * Whether `message` is the catalogue's default for the code, which the catalogue has in every
   * language; a message the thrower wrote stays as written.
   */
  readonly hasDefaultMessage: boolean;
  /** The catalogue text the message was made of, if any: said in another language too. */
  readonly text: ErrorText | undefined;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    const entry = errorCatalogue[code];
    const text = options.text;
    super(
      options.message ?? (text ? serverMessages(defaultLocale).format(text.id, text.values) : entry.message),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "AppError";
    this.code = code;
    this.statusCode = options.status ?? entry.status;
    this.details = options.details;
    this.issues = options.issues;
    this.extra = options.extra;
    this.headers = options.headers;
    this.hasDefaultMessage = options.message === undefined && text === undefined;
    this.text = options.message === undefined ? text : undefined;
  }

  /**
   * Whether `error` is an AppError, also one made by another copy of this class: each operator
   * command is a bundle of its own (apps/server/build.mjs), with its own copy.
   */
  static override [Symbol.hasInstance](error: unknown): boolean {
    // Subclasses (BlobNotFoundError…) keep the usual check: only AppError itself looks for the brand.
    if (this !== AppError) return Function.prototype[Symbol.hasInstance].call(this, error);
    return typeof error === "object" && error !== null && appErrorBrand in error;
  }

  /** Set on every AppError; `Symbol.for` is the same in every bundle of the process. */
  readonly [appErrorBrand] = true;
}

/**
 * The error's human message in `locale`: the catalogue's text for its code (errors.json) when the
 * message is the default one, or the catalogue text it was thrown with, else the message as thrown. English is always the message itself,
 * byte for byte. The code never changes.
 */
export function messageIn(error: AppError, locale: string): string {
  if (locale === defaultLocale) return error.message;
  const first = error.issues ? detailsIn(error, locale)?.[0] : undefined;
  if (first && error.details?.[0] && fieldMessage(error.details[0]) === error.message) return fieldMessage(first);
  const words = serverMessages(locale);
  if (error.text) return words.has(error.text.id) ? words.format(error.text.id, error.text.values) : error.message;
  if (!error.hasDefaultMessage) return error.message;
  const id = `error.${error.code}` as const;
  return words.has(id) ? words.format(id) : error.message;
}

/**
 * A thrown value as the client sees it; `unexpected` ones are bugs, logged and never described;
 * `operatorMustAct` ones are the machine's trouble, not the client's (a full disk), logged too.
 */
export interface ClassifiedError {
  error: AppError;
  unexpected: boolean;
  operatorMustAct?: boolean;
}

/**
 * Turns anything thrown while answering a request into a catalogue entry: our own errors as they
 * are; schema and zod validation failures as `validation_failed` with the fields at fault;
 * Fastify's client errors (bad JSON, body too large, wrong content type…) by their status; the
 * rest as `unexpected_failure`.
 */
export function classifyError(thrown: unknown): ClassifiedError {
  if (thrown instanceof AppError) return { error: thrown, unexpected: false };
  if (isOutOfSpace(thrown)) return { error: new AppError("insufficient_storage"), unexpected: false, operatorMustAct: true };
  // Two transactions that locked the same rows in turn (the kept counts of months and tags), or
  // SQLite's write lock held by another process (an operator's import): the database undid or never
  // began the write; nothing of it stayed, and the same request succeeds when sent again.
  if (causes(thrown).some(({ code }) => code !== undefined && transientConflictCodes.has(code)))
    return {
      error: new AppError("service_unavailable", { headers: { "retry-after": String(conflictRetrySeconds) } }),
      unexpected: false,
    };
  if (isOutOfReach(thrown))
    return {
      error: new AppError("service_unavailable", { headers: { "retry-after": String(outOfReachRetrySeconds) } }),
      unexpected: false,
      operatorMustAct: true,
    };
  if (thrown instanceof Error && hasZodFastifySchemaValidationErrors(thrown)) {
    const details = thrown.validation.map((issue) => ({
      path: [thrown.validationContext, ...issue.instancePath.split("/").filter(Boolean)].filter(Boolean).join("."),
      message: issue.message ?? "is not valid",
    }));
    const issues = thrown.validation.map((issue) => ({ ...issue.params, code: issue.keyword }));
    return { error: validationFailed(details, issues), unexpected: false };
  }
  if (thrown instanceof ZodError) {
    const details = thrown.issues.map((issue) => ({ path: issue.path.join(".") || "body", message: issue.message }));
    return {
      error: validationFailed(
        details,
        thrown.issues.map((issue) => ({ ...issue })),
      ),
      unexpected: false,
    };
  }
  const status = statusOf(thrown);
  if (status !== undefined && status >= 400 && status < 500) {
    const code = clientErrorCode(thrown, status);
    // Fastify's own words for a client's mistake ("Body cannot be empty…") say more than the catalogue's.
    const message = code !== "bad_json" && thrown instanceof Error ? thrown.message : undefined;
    return { error: new AppError(code, { status, ...(message ? { message } : {}) }), unexpected: false };
  }
  return { error: new AppError("unexpected_failure"), unexpected: true };
}

/**
 * Codes of a write refused for want of space: the file system's ENOSPC and EDQUOT (quota),
 * SQLite's SQLITE_FULL (its database file's disk is full) and PostgreSQL's disk_full (53100).
 */
const outOfSpaceCodes = new Set(["ENOSPC", "EDQUOT", "SQLITE_FULL", "53100"]);

/**
 * A write that failed for want of space: one of `outOfSpaceCodes` or an S3-compatible server's
 * 507, anywhere in the error's cause chain (stores wrap what they throw).
 */
function isOutOfSpace(thrown: unknown): boolean {
  return causes(thrown).some(({ code, storeStatus }) => (code !== undefined && outOfSpaceCodes.has(code)) || storeStatus === 507);
}

/**
 * What a thrown error and its causes (stores and drivers wrap what they throw; five deep at most)
 * say of themselves: a system or driver `code`, a `name`, and an S3-compatible server's status.
 */
function causes(thrown: unknown): { code?: string; name?: string; storeStatus?: number }[] {
  const found: { code?: string; name?: string; storeStatus?: number }[] = [];
  for (let error = thrown, depth = 0; typeof error === "object" && error !== null && depth < 5; depth += 1) {
    found.push({
      ...("code" in error && typeof error.code === "string" ? { code: error.code } : {}),
      ...("name" in error && typeof error.name === "string" ? { name: error.name } : {}),
      ...("$metadata" in error
        ? { storeStatus: (error.$metadata as { httpStatusCode?: number } | undefined)?.httpStatusCode }
        : {}),
    });
    error = "cause" in error ? error.cause : undefined;
  }
  return found;
}

/**
 * A part the server needs did not answer (issue #37): the database or the photo store unreachable,
 * refusing or dropping connections, timing out, or answering with a server error of its own. The
 * request is answered `503 service_unavailable` with `Retry-After`, as the gap is usually short
 * (a restart); the next request tries again, so the server heals without a restart.
 */
const outOfReachCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "EPIPE",
  // PostgreSQL: connection exceptions (class 08) and the server shutting down or starting (57P01–57P03).
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "57P01",
  "57P02",
  "57P03",
]);
/** How long a client is asked to wait before trying again. */
const outOfReachRetrySeconds = 5;
/**
 * PostgreSQL's deadlock_detected and serialization_failure (the transaction rolled back whole);
 * SQLite's write lock held by another process past the server's short wait (ADR 0085). Nothing
 * was written, and the same request succeeds once the other write ends.
 */
const transientConflictCodes = new Set(["40P01", "40001", "SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT", "SQLITE_BUSY_TIMEOUT"]);
const conflictRetrySeconds = 1;

function isOutOfReach(thrown: unknown): boolean {
  return causes(thrown).some(
    ({ code, name, storeStatus }) =>
      (code !== undefined && outOfReachCodes.has(code)) ||
      name === "TimeoutError" ||
      name === "NetworkingError" ||
      (storeStatus !== undefined && storeStatus >= 500 && storeStatus !== 507),
  );
}

/** The fields at fault, with the first of them named in the message for clients that show only it. */
function validationFailed(details: FieldProblem[], issues?: readonly SchemaIssue[]): AppError {
  const first = details[0];
  return new AppError("validation_failed", {
    details,
    ...(issues ? { issues } : {}),
    ...(first ? { message: fieldMessage(first) } : {}),
  });
}

function fieldMessage(problem: FieldProblem): string {
  return `${problem.path ? `${problem.path}: ` : ""}${problem.message}`;
}

type SchemaErrorMap = (issue: SchemaIssue) => string | { message: string } | undefined | null;

const schemaErrorMaps = new Map<string, SchemaErrorMap | undefined>();

/** The schema library's error map for `locale`, made once per language (its factory builds a new one each call). */
function schemaErrorMap(locale: string): SchemaErrorMap | undefined {
  if (!schemaErrorMaps.has(locale)) {
    const locales = z.locales as unknown as Record<string, (() => { localeError: SchemaErrorMap }) | undefined>;
    const language = locales[locale.replace("-", "")] ?? locales[locale.split("-")[0] ?? ""];
    schemaErrorMaps.set(locale, language?.().localeError);
  }
  return schemaErrorMaps.get(locale);
}

/** The schema library's own words for an issue in `locale` (its English for "en"), if it has that language. */
function schemaWords(issue: SchemaIssue, locale: string): string | undefined {
  try {
    const said = schemaErrorMap(locale)?.(issue);
    return typeof said === "string" ? said : (said?.message ?? undefined);
  } catch {
    return undefined;
  }
}

/**
 * A validation error's fields at fault in `locale`: each problem in the schema library's words of
 * that language where the message is its English default; a message the schema wrote itself stays
 * as written. English is the details as they are.
 */
export function detailsIn(error: AppError, locale: string): FieldProblem[] | undefined {
  const { details, issues } = error;
  if (!details || !issues || locale === defaultLocale) return details;
  const words = serverMessages(locale);
  return details.map((problem, index) => {
    const issue = issues[index];
    if (!issue) return problem;
    // The contract's own words for a field (errors.json errorText.field.*).
    const own = fieldTexts().get(problem.message);
    if (own) return { path: problem.path, message: words.has(own) ? words.format(own) : problem.message };
    if (schemaWords(issue, defaultLocale) !== problem.message) return problem;
    return { path: problem.path, message: schemaWords(issue, locale) ?? problem.message };
  });
}

const fieldTextIds = [
  "errorText.field.required",
  "errorText.field.date",
  "errorText.field.dateRange",
  "errorText.field.month",
  "errorText.field.domains",
] as const satisfies readonly ServerMessageId[];
let fieldTextsByEnglish: Map<string, ServerMessageId> | undefined;

/** The contract's own words for a field, by their English. */
function fieldTexts(): Map<string, ServerMessageId> {
  const english = serverMessages(defaultLocale);
  return (fieldTextsByEnglish ??= new Map(fieldTextIds.map((id) => [english.format(id), id])));
}

function statusOf(thrown: unknown): number | undefined {
  if (typeof thrown !== "object" || thrown === null || !("statusCode" in thrown)) return undefined;
  return typeof thrown.statusCode === "number" ? thrown.statusCode : undefined;
}

function clientErrorCode(thrown: unknown, status: number): ErrorCode {
  const fastifyCode = typeof thrown === "object" && thrown !== null && "code" in thrown ? thrown.code : undefined;
  if (fastifyCode === "FST_ERR_CTP_INVALID_JSON_BODY" || (thrown instanceof SyntaxError && status === 400)) return "bad_json";
  switch (status) {
    case 404:
      return "not_found";
    case 405:
      return "method_not_allowed";
    case 413:
      return "request_entity_too_large";
    case 415:
      return "unsupported_media_type";
    case 429:
      return "over_request_rate_limit";
    default:
      return "bad_request";
  }
}
