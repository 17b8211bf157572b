import fc from "fast-check";
import { multipartBoundary, multipartContentType, multipartPayload } from "../multipart";

/** Go durations as an admin's `ban_duration`: valid, negative, fractional, overflowing, unitless. */
export const banDurations = [
  "none",
  "24h",
  "1h30m",
  "-1h",
  "0s",
  "876000h",
  "99999999999999999999h",
  "9223372036854775807ns",
  "1.5h",
  "h",
  "1d",
  "300ms",
  "2562047h",
  "2562048h",
];

/** What the arbitraries draw on besides randomness: real ids, tokens and images of the app under test. */
export interface FuzzContext {
  /** A live member session, as `Bearer …`; read on every request because it may be renewed. */
  memberAuthorization: () => string;
  /** Another member, signed in, whose account the admin routes may change or delete. */
  otherAuthorization: string;
  operatorAuthorization: string;
  /** Ids that exist: a memory, a photo, a user, a bucket… */
  knownIds: string[];
  /** Addresses that exist or are invited. */
  knownEmails: string[];
  /** Valid images (PNG, JPEG, WebP, GIF) made with sharp. */
  images: Buffer[];
  /** Keys of stored photo objects, for the signed-URL route. */
  photoKeys: string[];
  /** Ids of uploaded photos (attached or not). */
  photoIds: string[];
}

export interface FuzzRequest {
  /** The route it was made for, for the statistics (not sent). */
  route?: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

// ---------------------------------------------------------------------------------------------
// Text

/** Characters a real HTTP client can put in a header value: visible ASCII, space, tab and latin-1. */
const headerChar = fc
  .oneof(
    { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
    { weight: 1, arbitrary: fc.constant(0x09) },
    { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
  )
  .map((code) => String.fromCharCode(code));
export const headerText = (maxLength = 60) => fc.string({ unit: headerChar, maxLength });

/** Strings that tend to break things: empty, NUL, lone surrogates, RTL marks, SQL and path syntax, huge. */
const nastyStrings = fc.constantFrom(
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "\u202e",
  "😀",
  "e\u0301",
  "NaN",
  "Infinity",
  "-1",
  "0",
  "1e309",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "'; drop table memories; --",
  '"',
  "%",
  "%00",
  "_",
  "\\",
  "../../../../etc/passwd",
  "..",
  "<script>alert(1)</script>",
  "__proto__",
  "constructor",
  "\r\n",
  "*",
  "AND",
  'a"b',
  "NEAR(a b)",
);

export const anyText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 3, arbitrary: nastyStrings },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 5000 }).map((length) => "x".repeat(length)) },
);

/** Percent-encodes any string, lone surrogates included (encodeURIComponent throws on those). */
export function encode(value: string): string {
  return [...Buffer.from(value, "utf8")]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");
}

// ---------------------------------------------------------------------------------------------
// Path parameters

/** Raw path segments: traversal, broken percent-encoding, NUL, overlong UTF-8… inserted as they are. */
const rawSegments = fc.constantFrom(
  "..",
  "../",
  "..%2F..%2Fetc%2Fpasswd",
  "%2e%2e",
  "%2e%2e%2f",
  "%00",
  "a%00b",
  "%",
  "%zz",
  "%ff",
  "%c0%ae%c0%ae",
  "%E2%80%AE",
  "%F0%9F%98%80",
  ".",
  "~",
  "*",
  ":id",
  "%252e",
  "a;b",
  "a,b",
  "a+b",
  "%20",
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "00000000-0000-0000-0000-00000000000G",
  "{id}",
);

export const pathValue = (context: FuzzContext) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.uuid().map((value) => value) },
    { weight: 3, arbitrary: fc.constantFrom(...context.knownIds) },
    { weight: 4, arbitrary: anyText.map(encode) },
    { weight: 3, arbitrary: rawSegments },
    { weight: 1, arbitrary: fc.uuid().map((value) => value.toUpperCase()) },
    { weight: 1, arbitrary: fc.integer({ min: 256, max: 20_000 }).map((length) => "a".repeat(length)) },
    { weight: 1, arbitrary: fc.integer().map(String) },
  );

/** A blob key for the signed-URL route: may contain slashes, dots and anything else. */
export const objectKey = (context: FuzzContext) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...context.photoKeys) },
    { weight: 2, arbitrary: fc.array(pathValue(context), { minLength: 1, maxLength: 4 }).map((segments) => segments.join("/")) },
    { weight: 1, arbitrary: fc.constantFrom(...context.photoKeys).map((key) => `../${key}`) },
    { weight: 1, arbitrary: fc.constantFrom(...context.photoKeys).map((key) => key.replace("/", "//")) },
    { weight: 1, arbitrary: fc.constant("") },
  );

// ---------------------------------------------------------------------------------------------
// Query strings

const queryKeys = [
  "limit",
  "cursor",
  "q",
  "tag",
  "grant_type",
  "scope",
  "redirect_to",
  "type",
  "token",
  "page",
  "per_page",
  "filter",
  "expires",
  "provider",
  "__proto__",
];

/** The `type` values of /verify and /resend for e-mail, as GoTrue names them. */
const emailOtpTypes = ["signup", "invite", "magiclink", "recovery", "email_change", "email"];

const queryValues = fc.oneof(
  { weight: 4, arbitrary: anyText },
  { weight: 2, arbitrary: fc.integer({ min: -1000, max: 1_000_000 }).map(String) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "password",
      "refresh_token",
      "pkce",
      "id_token",
      "web3",
      "global",
      "local",
      "others",
      ...emailOtpTypes,
      "http://localhost:3000/",
      "https://evil.example/",
      "javascript:alert(1)",
      "//evil.example",
      "9999999999999999999999",
      "1.5",
      "0x10",
      "1e3",
      "2147483648",
      "9007199254740993",
    ),
  },
  { weight: 1, arbitrary: fc.base64String({ maxLength: 120 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "MjAyNC0wMS0wMXwyMDI0LTAxLTAxVDAwOjAwOjAwLjAwMFp8MDAwMDAwMDAtMDAwMC0wMDAwLTAwMDAtMDAwMDAwMDAwMDAw",
      "AAAA",
      "____",
      "%%%",
    ),
  },
);

export const queryString = fc.oneof(
  { weight: 2, arbitrary: fc.constant("") },
  {
    weight: 6,
    arbitrary: fc
      .array(
        fc.tuple(
          fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...queryKeys) }, { weight: 1, arbitrary: anyText }),
          queryValues,
        ),
        { maxLength: 5 },
      )
      .map((pairs) => (pairs.length === 0 ? "" : `?${pairs.map(([key, value]) => `${encode(key)}=${encode(value)}`).join("&")}`)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "?",
      "?&",
      "?=",
      "?==&&",
      "?%",
      "?a=%zz",
      "?limit[]=1",
      "?limit[a]=1",
      "?q=%00",
      "?limit=1&limit=2",
      "?a[b][c][d]=e",
      "?__proto__[x]=1",
    ),
  },
);

// ---------------------------------------------------------------------------------------------
// Headers

function jwtLike(header: object, payload: object, signature: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part(header)}.${part(payload)}.${signature}`;
}

/** Mostly the credential the route wants (so requests get past authentication), often anything else. */
export const authorization = (context: FuzzContext, preferred: "member" | "operator" = "member") =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: preferred === "member" ? 40 : 3, arbitrary: fc.constant("member").map(() => context.memberAuthorization()) },
    { weight: preferred === "operator" ? 40 : 3, arbitrary: fc.constant(context.operatorAuthorization) },
    { weight: 1, arbitrary: fc.constant(context.otherAuthorization) },
    {
      weight: 2,
      arbitrary: fc
        .nat({ max: 400 })
        .map((cut) => context.memberAuthorization().slice(0, context.memberAuthorization().length - 1 - cut)),
    },
    { weight: 1, arbitrary: fc.constant("member").map(() => context.memberAuthorization().replace("Bearer ", "bearer   ")) },
    { weight: 1, arbitrary: fc.constant("member").map(() => `${context.memberAuthorization()}x`) },
    { weight: 1, arbitrary: fc.constant("member").map(() => context.memberAuthorization().replace(/\.[^.]+$/, ".AAAA")) },
    { weight: 2, arbitrary: headerText(80).map((value) => `Bearer ${value}`) },
    { weight: 2, arbitrary: headerText(80) },
    {
      weight: 1,
      arbitrary: fc
        .record({
          alg: fc.constantFrom("none", "HS256", "RS256", "ES256", "EdDSA", "HS512"),
          kid: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
        })
        .chain((header) =>
          fc.tuple(
            fc.constant(header),
            fc.record({
              sub: fc.uuid(),
              role: fc.constantFrom("service_role", "authenticated", "supabase_admin"),
              exp: fc.integer({ min: 0, max: 2 ** 40 }),
              session_id: fc.option(fc.uuid(), { nil: undefined }),
            }),
            fc.base64String({ maxLength: 40 }),
          ),
        )
        .map(([header, payload, signature]) => `Bearer ${jwtLike(header, payload, signature)}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "Bearer",
        "Bearer ",
        "Basic dXNlcjpwYXNz",
        "Bearer a.b.c",
        "Bearer ..",
        "Bearer a b",
        `Bearer ${"x".repeat(10_000)}`,
      ),
    },
  );

const contentTypes = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=latin1",
  "APPLICATION/JSON",
  "application/vnd.api+json",
  "text/plain",
  "text/plain; charset=utf-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "multipart/form-data; boundary=x",
  "application/octet-stream",
  "image/png",
  "application/xml",
  "",
  ";",
  "json",
  "*/*",
);

export const extraHeaders = fc.record(
  {
    "if-match": fc.oneof(
      fc.constantFrom('"v1"', '"v0"', '"v2"', '"v999999999"', '"v1234567890"', "*", 'W/"v1"', '"v-1"', "v1", '"v1", "v2"'),
      headerText(20),
    ),
    range: fc.oneof(
      fc.constantFrom(
        "bytes=0-0",
        "bytes=0-",
        "bytes=-10",
        "bytes=5-1",
        "bytes=0-999999999999999",
        "bytes=999999999999999-",
        "bytes=0-1,2-3",
        "bytes=",
        "items=0-1",
        "bytes=1-1",
      ),
      headerText(20),
    ),
    "x-supabase-api-version": fc.oneof(
      fc.constantFrom("2024-01-01", "2024-01-01", "2023-12-31", "2099-12-31", "9999-99-99", "0000-00-00"),
      headerText(12),
    ),
    apikey: headerText(40),
    "last-event-id": headerText(40),
    "x-request-id": headerText(70),
    accept: fc.constantFrom("application/json", "text/html", "*/*", "text/event-stream", "image/webp"),
    "accept-encoding": fc.constantFrom("gzip", "br", "identity", "deflate, gzip;q=0", "*"),
    "user-agent": headerText(60),
    "x-forwarded-for": fc.oneof(fc.ipV4(), fc.ipV6(), headerText(30)),
    origin: fc.constantFrom("http://localhost:3000", "https://evil.example", "null"),
    "access-control-request-method": fc.constantFrom("GET", "POST", "DELETE", "FOO"),
  },
  { requiredKeys: [] },
);

// ---------------------------------------------------------------------------------------------
// Bodies

const fieldNames = [
  "title",
  "content",
  "memory_date",
  "tags",
  "photo_ids",
  "email",
  "password",
  "phone",
  "data",
  "user_metadata",
  "app_metadata",
  "refresh_token",
  "auth_code",
  "code_verifier",
  "token",
  "token_hash",
  "type",
  "code_challenge",
  "code_challenge_method",
  "create_user",
  "nonce",
  "check_email",
  "user_email",
  "name",
  "id",
  "public",
  "file_size_limit",
  "allowed_mime_types",
  "ban_duration",
  "role",
  "email_confirm",
  "phone_confirm",
  "should_soft_delete",
  "new_email",
  "redirect_to",
  "password_hash",
  "__proto__",
  "constructor",
];

/** Values that look right for some field, so requests get past the schema into the services. */
const plausibleValues = (context: FuzzContext) =>
  fc.oneof(
    fc.emailAddress(),
    fc.constantFrom(...context.knownEmails),
    fc.uuid(),
    fc.constantFrom(...context.knownIds),
    fc.array(fc.oneof(fc.uuid(), fc.constantFrom(...context.knownIds)), { maxLength: 4 }),
    fc.array(anyText, { maxLength: 5 }),
    fc.constantFrom(
      "correct horse battery",
      "2024-02-29",
      "2023-02-29",
      "0000-00-00",
      "9999-12-31",
      "+123456789",
      ...emailOtpTypes,
      "sms",
      "phone_change",
      "s256",
      "plain",
      "S256",
      ...banDurations,
      "service_role",
      "authenticated",
      "memory-photos",
      "image/png",
      "image/*",
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ-._~",
      "x".repeat(43),
      "x".repeat(129),
      "http://localhost:3000/",
      "https://evil.example/",
    ),
    fc.constantFrom(0, -1, 1, 1.5, 2 ** 31, 2 ** 31 - 1, 2 ** 53, 2 ** 63, 1e308, -1e308, Number.MAX_SAFE_INTEGER),
    fc.boolean(),
    fc.constant(null),
    fc.dictionary(
      fc.constantFrom("full_name", "avatar_url", "role", "x", "__proto__"),
      fc.oneof(anyText, fc.constant(null), fc.jsonValue({ maxDepth: 2 })),
      { maxKeys: 3 },
    ),
  );

/** Objects made of known field names with values that are sometimes right and often the wrong type. */
const fieldObject = (context: FuzzContext) =>
  fc.dictionary(
    fc.constantFrom(...fieldNames),
    fc.oneof(
      { weight: 3, arbitrary: plausibleValues(context) },
      { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
      { weight: 1, arbitrary: anyText },
    ),
    {
      maxKeys: 6,
    },
  );

/** A memory that would be valid but for one thing, or valid outright. */
const memoryLike = (context: FuzzContext) =>
  fc.record(
    {
      title: fc.oneof(anyText, fc.constant(123), fc.constant(null), fc.constant([])),
      content: fc.oneof(
        anyText,
        fc.constant(null),
        fc.constant(0),
        fc.integer({ min: 19_990, max: 40_010 }).map((length) => " y".repeat(length / 2)),
      ),
      memory_date: fc.oneof(
        fc.date({ noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
        fc.constantFrom("2024-02-30", "", " ", "2024-1-1", "20240101", "+020000-01-01"),
        anyText,
      ),
      tags: fc.oneof(
        fc.array(anyText, { maxLength: 70 }),
        fc.constant(null),
        fc.constant("tag"),
        fc.array(fc.integer(), { maxLength: 3 }),
      ),
      photo_ids: fc.oneof(
        fc.array(fc.oneof(fc.uuid(), fc.constantFrom(...context.knownIds)), { maxLength: 5 }),
        fc.constant(null),
        fc.constant("id"),
        fc.array(fc.uuid(), { minLength: 100, maxLength: 102 }),
      ),
      extra: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: [] },
  );

/** `{"a":{"a":…1}}` or `[[[…1]]]`, `depth` levels deep, as text. */
export function nestedJsonText(depth: number, kind: "object" | "array"): string {
  return kind === "object" ? `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}` : `${"[".repeat(depth)}1${"]".repeat(depth)}`;
}

/** Nested JSON thousands deep: valid JSON that recursive code may choke on. */
const deepJson = fc
  .record({ depth: fc.integer({ min: 50, max: 20_000 }), shape: fc.constantFrom("array", "object", "data", "metadata", "tags") })
  .map(({ depth, shape }) => {
    const arrays = nestedJsonText(depth, "array");
    const objects = nestedJsonText(depth, "object");
    switch (shape) {
      case "array":
        return arrays;
      case "object":
        return objects;
      case "data":
        return `{"email":"deep@memory-box.test","password":"correct horse battery","data":${objects}}`;
      case "metadata":
        return `{"user_metadata":${objects},"app_metadata":${objects},"email":"deep@memory-box.test"}`;
      case "tags":
        return `{"title":"deep","tags":${arrays}}`;
    }
  });

/** ~1 MB and a little over: the JSON body limit is 1 MiB. */
const hugeJson = fc
  .record({
    size: fc.constantFrom(1_000_000, 1_048_560, 1_048_577, 1_500_000),
    field: fc.constantFrom("title", "content", "email", "password", "q", "check_email"),
  })
  .map(({ size, field }) => JSON.stringify({ [field]: "x".repeat(size) }));

export interface FuzzBody {
  payload?: string | Buffer;
  contentType?: string;
}

function serialise(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}

export const body = (context: FuzzContext) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant<FuzzBody>({}) },
    {
      weight: 4,
      arbitrary: fieldObject(context).map((value) => ({ payload: JSON.stringify(value), contentType: "application/json" })),
    },
    {
      weight: 2,
      arbitrary: memoryLike(context).map((value) => ({ payload: JSON.stringify(value), contentType: "application/json" })),
    },
    {
      weight: 3,
      arbitrary: fc.jsonValue().map((value) => ({ payload: JSON.stringify(value), contentType: "application/json" })),
    },
    {
      weight: 1,
      arbitrary: fc
        .anything({
          withBoxedValues: true,
          withMap: true,
          withSet: true,
          withDate: true,
          withTypedArray: true,
          withSparseArray: true,
        })
        .map((value) => ({ payload: serialise(value), contentType: "application/json" })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.jsonValue({ maxDepth: 2 }), contentTypes)
        .map(([value, contentType]) => ({ payload: JSON.stringify(value), contentType })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(anyText, fc.option(contentTypes, { nil: undefined }))
        .map(([payload, contentType]) => ({ payload, ...(contentType === undefined ? {} : { contentType }) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.uint8Array({ maxLength: 2000 }), contentTypes)
        .map(([bytes, contentType]) => ({ payload: Buffer.from(bytes), contentType })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          "{",
          '{"title":',
          "[1,2",
          '{"a":1}{"b":2}',
          "\ufeff{}",
          '{"title":"\\ud800"}',
          '{"title":"a\\u0000b"}',
          '{"email":"a\\u0000@x.test"}',
          "nul\u0000l",
          '{"__proto__":{"admin":true}}',
          '{"constructor":{"prototype":{"x":1}}}',
          "1e999999",
        )
        .map((payload) => ({ payload, contentType: "application/json" })),
    },
    { weight: 1, arbitrary: deepJson.map((payload) => ({ payload, contentType: "application/json" })) },
    { weight: 1, arbitrary: hugeJson.map((payload) => ({ payload, contentType: "application/json" })) },
  );

// ---------------------------------------------------------------------------------------------
// Multipart uploads

/** Image bytes as an upload might carry them: valid, truncated, corrupted, or not an image at all. */
const imageBytes = (context: FuzzContext) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...context.images) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.constantFrom(...context.images), fc.double({ min: 0, max: 1, noNaN: true }))
        .map(([image, cut]) => image.subarray(0, Math.floor(image.length * cut))),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...context.images),
          fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        )
        .map(([image, edits]) => {
          const copy = Buffer.from(image);
          for (const [at, value] of edits) copy[at % copy.length] = value;
          return copy;
        }),
    },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 4096 }).map((bytes) => Buffer.from(bytes)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            Buffer.from([0xff, 0xd8, 0xff]),
            Buffer.from("\x89PNG\r\n\x1a\n", "latin1"),
            Buffer.from("GIF89a"),
            Buffer.from("RIFF\0\0\0\0WEBP"),
            Buffer.from("\0\0\0\x18ftypheic", "latin1"),
            Buffer.from("\0\0\0\x18ftypavif", "latin1"),
            Buffer.from("\0\0\0\x18ftypmif1", "latin1"),
          ),
          fc.uint8Array({ maxLength: 1024 }),
        )
        .map(([magic, rest]) => Buffer.concat([magic, Buffer.from(rest)])),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"),
        Buffer.from("%PDF-1.4"),
        Buffer.alloc(0),
      ),
    },
  );

const part = (context: FuzzContext) =>
  fc.record({
    name: fc.oneof(
      { weight: 6, arbitrary: fc.constant("file") },
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 2, arbitrary: fc.constantFrom("photo", "files[]", "", "FILE", "file\u0000") },
      { weight: 1, arbitrary: headerText(10) },
    ),
    filename: fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom("a.png", "IMG_0001.JPG", "photo.webp", "x.heic") },
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 2, arbitrary: headerText(40) },
      { weight: 1, arbitrary: fc.constantFrom("../../../etc/passwd", "", "x".repeat(300)) },
    ),
    contentType: fc.oneof(
      fc.constantFrom("image/png", "image/jpeg", "text/html", "application/octet-stream", "image/svg+xml"),
      fc.constant(undefined),
      headerText(20),
    ),
    data: imageBytes(context),
  });

export const multipartBody = (context: FuzzContext) =>
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .record({
          parts: fc.array(part(context), { minLength: 0, maxLength: 3 }),
          closing: fc.boolean(),
          header: fc.constantFrom("ok", "ok", "ok", "no boundary", "other boundary", "quoted", "mixed"),
        })
        .map(({ parts, closing, header }): FuzzBody => {
          const contentType = {
            ok: multipartContentType,
            "no boundary": "multipart/form-data",
            "other boundary": "multipart/form-data; boundary=somethingelse",
            quoted: `multipart/form-data; boundary="${multipartBoundary}"`,
            mixed: `multipart/mixed; boundary=${multipartBoundary}`,
          }[header];
          return { payload: multipartPayload(parts, closing || parts.length === 0), contentType };
        }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ parts: fc.array(part(context), { minLength: 1, maxLength: 2 }) }).map(({ parts }): FuzzBody => ({
        payload: multipartPayload(parts, true).subarray(0, 200),
        contentType: multipartContentType,
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 2048 })
        .map((bytes): FuzzBody => ({ payload: Buffer.from(bytes), contentType: multipartContentType })),
    },
    { weight: 1, arbitrary: body(context) },
  );

/** A multipart body with one well-formed file part named `file`. */
export function singleFileUpload(data: Buffer, filename = "photo.png", contentType = "image/png"): FuzzBody {
  return { payload: multipartPayload([{ name: "file", filename, contentType, data }], true), contentType: multipartContentType };
}
