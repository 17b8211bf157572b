import { describe, expect, it } from "vitest";
import { parseStorageUrl, StorageUrlError } from "./storage-url";

describe("parseStorageUrl", () => {
  it("reads a file: URL as a local folder", () => {
    expect(parseStorageUrl("file:///srv/memory-box/storage/")).toEqual({ kind: "local", rootDir: "/srv/memory-box/storage" });
    expect(parseStorageUrl("file:///srv/with%20space")).toEqual({ kind: "local", rootDir: "/srv/with space" });
  });

  it("reads a full s3: URL", () => {
    expect(
      parseStorageUrl(
        "s3://AKIA%2Fkey:s3cr%40t@photos/memory-box/prod/?endpoint=http://127.0.0.1:9000&region=eu-west-3&forcePathStyle=false",
      ),
    ).toEqual({
      kind: "s3",
      bucket: "photos",
      prefix: "memory-box/prod",
      endpoint: "http://127.0.0.1:9000",
      region: "eu-west-3",
      forcePathStyle: false,
      accessKeyId: "AKIA/key",
      secretAccessKey: "s3cr@t",
    });
  });

  it("leaves credentials, region and prefix to defaults when absent", () => {
    expect(parseStorageUrl("s3://photos")).toEqual({
      kind: "s3",
      bucket: "photos",
      prefix: undefined,
      endpoint: undefined,
      region: undefined,
      forcePathStyle: false,
      accessKeyId: undefined,
      secretAccessKey: undefined,
    });
  });

  it("turns path-style addressing on by default for a custom endpoint", () => {
    expect(parseStorageUrl("s3://photos?endpoint=https://s3.example.org")).toMatchObject({ forcePathStyle: true });
  });

  it.each([
    ["forcePathStyle=true", true],
    ["forcePathStyle=1", true],
    ["path_style=true", true],
    ["path_style=false", false],
    ["forcePathStyle=0", false],
  ])("accepts %s", (query, expected) => {
    expect(parseStorageUrl(`s3://photos?endpoint=http://minio:9000&${query}`)).toMatchObject({ forcePathStyle: expected });
  });

  it.each([
    ["", /not a URL/],
    ["/srv/storage", /not a URL/],
    ["ftp://host/folder", /unsupported scheme "ftp:"/],
    ["file://remote-host/share", /file:\/\/\/absolute/],
    ["file:///", /not the file system root/],
    ["file:///srv/storage?x=1", /no query/],
    ["s3://", /not a valid bucket name/],
    ["s3://Photos", /not a valid bucket name/],
    ["s3://a", /not a valid bucket name/],
    ["s3://photos:9000", /no port/],
    ["s3://photos?endpoint=127.0.0.1:9000", /endpoint must be an http/],
    ["s3://photos?forcePathStyle=yes", /true or false/],
    ["s3://photos?forcepathstyle=true", /unknown s3: parameter "forcepathstyle"/],
    ["s3://photos?region=a&region=b", /more than once/],
    ["s3://photos?forcePathStyle=true&path_style=true", /not both/],
    ["s3://photos?region=", /region is empty/],
    ["s3://keyonly@photos", /both the access key and the secret/],
    ["s3://photos/a//b", /not a usable folder/],
    ["s3://photos/a%5Cb", /not a usable folder/],
    ["s3://key:bad%zz@photos", /malformed %-escape/],
  ])("rejects %j", (url, message) => {
    expect(() => parseStorageUrl(url)).toThrow(StorageUrlError);
    expect(() => parseStorageUrl(url)).toThrow(message);
  });

  it("never repeats the secret in its error", () => {
    for (const url of ["s3://key:TOP-SECRET@photos?bogus=1", "s3://key:TOP-SECRET@Bad_Bucket", "s3://key:TOP-SECRET@photos:1"]) {
      expect(() => parseStorageUrl(url)).toThrow(StorageUrlError);
      expect(() => parseStorageUrl(url)).not.toThrow(/TOP-SECRET/);
    }
  });
});
