import Sqlite from "better-sqlite3";
import { DatabaseError } from "pg";
import { ErrorCode, errorCatalogue, isErrorCode } from "@memory-box/contract";
import { describe, expect, it } from "vitest";
import { DatabaseUnreachableError, isDriverConnectionFailure } from "./db/database";
import { AppError, classifyError, messageIn } from "./errors";

const fsError = (code: string) => Object.assign(new Error(`${code}: write`), { code });

describe("classifyError: running out of space", () => {
  it.each([
    ["a full disk", fsError("ENOSPC")],
    ["an exhausted quota", fsError("EDQUOT")],
    ["a full disk inside a store's own error", new Error("could not store", { cause: fsError("ENOSPC") })],
    ["SQLite's database file on a full disk", new Sqlite.SqliteError("database or disk is full", "SQLITE_FULL")],
    ["PostgreSQL out of disk space", Object.assign(new DatabaseError("could not extend file", 0, "error"), { code: "53100" })],
    [
      "an S3-compatible server out of space",
      Object.assign(new Error("XMinioStorageFull"), { $metadata: { httpStatusCode: 507 } }),
    ],
  ])("answers %s with 507 insufficient_storage, for the operator to act on", (_name, thrown) => {
    const { error, unexpected, operatorMustAct } = classifyError(thrown);
    expect(error).toMatchObject({ code: "insufficient_storage", statusCode: 507 });
    expect(unexpected).toBe(false);
    expect(operatorMustAct).toBe(true);
  });

  it("keeps any other file system failure an unexpected one, described to nobody", () => {
    const { error, unexpected } = classifyError(fsError("EACCES"));
    expect(error.code).toBe("unexpected_failure");
    expect(unexpected).toBe(true);
  });
});

describe("classifyError: a part out of reach (issue #37)", () => {
  it.each([
    ["the database refusing connections", fsError("ECONNREFUSED")],
    ["a connection dropped", new Error("could not store", { cause: fsError("ECONNRESET") })],
    ["PostgreSQL shutting down", Object.assign(new DatabaseError("terminating connection", 0, "error"), { code: "57P01" })],
    [
      "PostgreSQL starting up",
      Object.assign(new DatabaseError("the database system is starting up", 0, "error"), { code: "57P03" }),
    ],
    [
      "a PostgreSQL connection cut (the driver's error has no code)",
      new DatabaseUnreachableError(new Error("Connection terminated unexpectedly")),
    ],
    ["an S3 request timing out", Object.assign(new Error("timed out"), { name: "TimeoutError" })],
    ["an S3 server's own error", Object.assign(new Error("SlowDown"), { $metadata: { httpStatusCode: 503 } })],
  ])("answers %s with 503 service_unavailable and Retry-After, for the operator to see", (_name, thrown) => {
    const { error, unexpected, operatorMustAct } = classifyError(thrown);
    expect(error).toMatchObject({ code: "service_unavailable", statusCode: 503, headers: { "retry-after": "5" } });
    expect(unexpected).toBe(false);
    expect(operatorMustAct).toBe(true);
  });

  it("knows the PostgreSQL driver's connection failures by their words, and nothing else", () => {
    for (const message of [
      "Connection terminated unexpectedly",
      "Client has encountered a connection error and is not queryable",
      "timeout exceeded when trying to connect",
      "Connection terminated due to connection timeout",
    ])
      expect(isDriverConnectionFailure(new Error(message)), message).toBe(true);
    expect(isDriverConnectionFailure(new TypeError("Cannot read properties of undefined"))).toBe(false);
    const coded = Object.assign(new DatabaseError("Connection terminated unexpectedly", 0, "error"), { code: "42601" });
    expect(isDriverConnectionFailure(coded)).toBe(false);
  });

  it("keeps a client's mistake at the store (a 4xx) and a query's own error what they were", () => {
    expect(classifyError(Object.assign(new Error("AccessDenied"), { $metadata: { httpStatusCode: 403 } })).error.code).toBe(
      "unexpected_failure",
    );
    const syntax = Object.assign(new DatabaseError("syntax error", 0, "error"), { code: "42601" });
    expect(classifyError(syntax).error.code).toBe("unexpected_failure");
  });
});

describe("AppError across bundles", () => {
  // Each operator command is a bundle of its own, with its own copy of AppError; the CLI that
  // loaded it must still tell an operator's mistake (printed) from a bug (thrown).
  it("recognises an AppError made by another copy of the class, and nothing else", () => {
    const fromAnotherCopy = Object.assign(new Error("No stored object has that key."), {
      [Symbol.for("memory-box.AppError")]: true,
    });
    expect(fromAnotherCopy instanceof AppError).toBe(true);
    expect(new AppError("object_not_found") instanceof AppError).toBe(true);
    expect(new Error("a bug") instanceof AppError).toBe(false);
    expect((null as unknown) instanceof AppError).toBe(false);
  });

  it("keeps the usual check for its subclasses", () => {
    class ObjectNotFoundError extends AppError {}
    expect(new AppError("object_not_found") instanceof ObjectNotFoundError).toBe(false);
    expect(new ObjectNotFoundError("object_not_found") instanceof ObjectNotFoundError).toBe(true);
    expect(new ObjectNotFoundError("object_not_found") instanceof AppError).toBe(true);
  });
});

describe("an error thrown with a catalogue text", () => {
  it("says it in English as its message, and in the asker's language, keeping its code", () => {
    const wait = new AppError("over_request_rate_limit", {
      text: { id: "errorText.passwordRateLimit.seconds", values: { seconds: 2 } },
    });
    expect(wait.code).toBe("over_request_rate_limit");
    expect(wait.message).toBe("Too many wrong passwords were tried for this address. Try again in 2 seconds.");
    expect(messageIn(wait, "en")).toBe(wait.message);
    expect(messageIn(wait, "de")).toBe(
      "Für diese Adresse wurden zu viele falsche Passwörter versucht. Versuch es in 2 Sekunden noch einmal.",
    );
    // A language the catalogue does not have: English.
    expect(messageIn(wait, "xx")).toBe(wait.message);
    // A message written by the thrower stays as written.
    expect(messageIn(new AppError("insufficient_aal", { message: "AAL2 required to unenroll verified factor" }), "de")).toBe(
      "AAL2 required to unenroll verified factor",
    );
  });
});

describe("ErrorCode: what clients compare codes with", () => {
  it("names each code of the catalogue as itself", () => {
    for (const code of Object.keys(errorCatalogue)) expect(ErrorCode[code as ErrorCode]).toBe(code);
  });

  it("tells a code of the catalogue from any other string", () => {
    expect(isErrorCode("memory_changed")).toBe(true);
    expect(isErrorCode("toString")).toBe(false);
    expect(isErrorCode("not_a_code")).toBe(false);
  });
});

describe("classifyError: two transactions in each other's way", () => {
  it.each([
    ["a deadlock", "40P01"],
    ["a serialization failure", "40001"],
  ])("answers %s with 503 and Retry-After: the database undid it whole, and it may be sent again", (_name, code) => {
    const { error, unexpected, operatorMustAct } = classifyError(
      Object.assign(new DatabaseError("deadlock detected", 0, "error"), { code }),
    );
    expect(error.statusCode).toBe(503);
    expect(error.code).toBe("service_unavailable");
    expect(error.headers).toEqual({ "retry-after": "1" });
    expect(unexpected).toBe(false);
    expect(operatorMustAct).toBeFalsy();
  });
});
