import type { Photo } from "@memory-box/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { multipartContentType, multipartPayload } from "../../../test/multipart";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";
import { type DatabaseHandle, openDatabase } from "../../db/database";
import { MediaJobsRepository } from "../media-jobs";
import { heicGpsPoint, heicGpsSample } from "./fixtures/test-images";
import { photoLocationsJobKind } from "./photos.service";

// Photos uploaded before positions were read at upload (ADR 0058) get theirs from their originals
// through the `photo.locations` media jobs (ADR 0054), one batch of 20 per job, each queueing the next.

const sintra = { latitude: 38 + 47 / 60 + 49.2 / 3600, longitude: -(9 + 23 / 60 + 24 / 3600) };
const jpeg = (gps: boolean, shade: number) =>
  sharp({ create: { width: 32, height: 24, channels: 3, background: { r: shade, g: 120, b: 90 } } })
    .withExif(
      gps
        ? { IFD3: { GPSLatitudeRef: "N", GPSLatitude: "38/1 47/1 492/10", GPSLongitudeRef: "W", GPSLongitude: "9/1 23/1 24/1" } }
        : {},
    )
    .jpeg()
    .toBuffer();

describe.each(testEngines())("older photos' positions on %s", (engine) => {
  let testApp: TestApp;
  let ann: TestMember;
  let database: DatabaseHandle;

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    database = openDatabase(testApp.config.database);
  });
  afterAll(async () => {
    await database.destroy();
    await testApp.close();
  });

  const upload = async (filename: string, data: Buffer) => {
    const response = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/photos",
      payload: multipartPayload([{ name: "file", filename, contentType: "application/octet-stream", data }]),
      headers: { "content-type": multipartContentType, ...ann.headers },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Photo>();
  };
  const location = async (id: string) =>
    (await testApp.app.inject({ method: "GET", url: `/api/v1/photos/${id}`, headers: ann.headers })).json<Photo>().location;

  it("reads them from the originals in batches, once, leaving photos without GPS without one", async () => {
    const placedJpeg = await upload("IMG_0001.JPG", await jpeg(true, 10));
    const placedHeic = await upload("IMG_0002.HEIC", heicGpsSample());
    const plain = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => upload(`plain-${index}.jpg`, await jpeg(false, 20 + index))),
    );
    expect(placedJpeg.location).not.toBeNull();
    // As before places: no position was read at upload.
    await database.db.updateTable("photos").set({ latitude: null, longitude: null }).execute();
    expect(await location(placedJpeg.id)).toBeNull();

    await new MediaJobsRepository(database.db).enqueue(photoLocationsJobKind, "", new Date().toISOString());
    // The runner looks for due jobs every 5 s; the second batch's job is queued by the first.
    const deadline = Date.now() + 40_000;
    let jobs: { subject_id: string; state: string }[] = [];
    for (;;) {
      jobs = await database.db
        .selectFrom("media_jobs")
        .select(["subject_id", "state"])
        .where("kind", "=", photoLocationsJobKind)
        .orderBy("created_at")
        .execute();
      if (jobs.length === 2 && jobs.every((job) => job.state === "done")) break;
      expect(Date.now(), JSON.stringify(jobs)).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // 22 stills: a batch of 20, then one of 2 after the 20th id, the last.
    const ids = [placedJpeg, placedHeic, ...plain].map((photo) => photo.id).sort();
    expect(jobs.map((job) => job.subject_id)).toEqual(["", ids[19]]);

    const jpegAt = await location(placedJpeg.id);
    expect(jpegAt!.latitude).toBeCloseTo(sintra.latitude, 9);
    expect(jpegAt!.longitude).toBeCloseTo(sintra.longitude, 9);
    const heicAt = await location(placedHeic.id);
    expect(heicAt!.latitude).toBeCloseTo(heicGpsPoint.latitude, 9);
    expect(heicAt!.longitude).toBeCloseTo(heicGpsPoint.longitude, 9);
    for (const photo of plain) expect(await location(photo.id)).toBeNull();
  });
});
