import { open, stat } from "node:fs/promises";
import type { Photo } from "@memory-box/contract";
import type { PhotosService } from "../photos";
import { detectVideoContainer } from "./video-inspection";
import type { VideosService } from "./videos.service";

/**
 * Where every received media file goes, whichever way it came (the multipart upload, the
 * resumable upload): its first bytes decide whether it is a video, never its name or the client's
 * claim (a file named as a video is checked as one, and refused as one when it is not). A video goes to the videos service, anything else to the photo path, each with its own
 * size limit refused with its own code (a photo: 413 `request_entity_too_large` naming the photo
 * limit; a video: 413 `video_too_large`). The caller owns `file` and removes it afterwards.
 */
export class MediaIntake {
  constructor(
    private readonly deps: {
      photos: Pick<PhotosService, "acceptFile" | "tooLarge" | "maxUploadBytes">;
      videos: Pick<VideosService, "accept">;
    },
  ) {}

  async accept(ownerId: string, file: string, fileName: string): Promise<Photo> {
    if (await isVideoFile(file, fileName)) return this.deps.videos.accept(ownerId, file, fileName);
    const limit = this.deps.photos.maxUploadBytes;
    if (limit !== undefined && (await stat(file)).size > limit) throw this.deps.photos.tooLarge();
    return this.deps.photos.acceptFile(ownerId, file);
  }
}

/**
 * Whether a received file goes the video's way: its first bytes are a video container's, or its
 * name is a video's (a file named as a video is refused as one, "not a supported video", not as
 * an image). The media intake's rule, and the archive import's.
 */
export async function isVideoFile(file: string, fileName: string): Promise<boolean> {
  return videoExtension.test(fileName) || detectVideoContainer(await readHead(file)) !== null;
}

const videoExtension = /\.(?:mp4|m4v|mov|qt|webm|mkv)$/i;

async function readHead(file: string): Promise<Uint8Array> {
  const handle = await open(file, "r");
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(64), 0, 64, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
