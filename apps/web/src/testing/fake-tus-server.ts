import type { Photo } from "@memory-box/contract";

import type { ApiHandler } from "@/testing/stub-memory-api";

/**
 * A small tus 1.0.0 server, as `/api/v1/uploads` speaks it: creation (POST), the offset (HEAD) and
 * the bytes (PATCH, at the offset it has, else 409); the last PATCH answers with the media. The
 * first PATCH can be cut off after `cutAt` bytes arrived, as a dropped connection does; with
 * `loseLastAnswer` the last PATCH's answer is lost on the way, and a HEAD of the finished upload
 * names its media (`memory-box-media`), as the server does.
 */
export function tusServer(
  answer: (metadata: Record<string, string>) => Photo,
  { cutAt, loseLastAnswer = false }: { cutAt?: number; loseLastAnswer?: boolean } = {},
) {
  const uploads = new Map<string, { length: number; offset: number; metadata: Record<string, string>; media?: string }>();
  const patches: { id: string; offset: number; size: number; authorization: string | null }[] = [];
  let cut = cutAt;
  const routes: Record<string, ApiHandler> = {
    "POST /api/v1/uploads": ({ headers }) => {
      const id = `upload-${uploads.size + 1}`;
      const metadata = Object.fromEntries(
        (headers.get("Upload-Metadata") ?? "")
          .split(",")
          .filter(Boolean)
          .map((pair) => {
            const [key = "", value = ""] = pair.trim().split(" ");
            return [key, atob(value)];
          }),
      );
      uploads.set(id, { length: Number(headers.get("Upload-Length")), offset: 0, metadata });
      return new Response(null, { status: 201, headers: { Location: `/api/v1/uploads/${id}`, "Tus-Resumable": "1.0.0" } });
    },
    "HEAD /api/v1/uploads/:id": ({ params }) => {
      const upload = uploads.get(params.id ?? "");
      if (!upload) return new Response(null, { status: 404 });
      return new Response(null, {
        status: 200,
        headers: {
          "Upload-Offset": String(upload.offset),
          "Upload-Length": String(upload.length),
          "Tus-Resumable": "1.0.0",
          ...(upload.media ? { "Memory-Box-Media": upload.media } : {}),
        },
      });
    },
    "PATCH /api/v1/uploads/:id": ({ params, headers, body }) => {
      const upload = uploads.get(params.id ?? "");
      if (!upload) return new Response(null, { status: 404 });
      if (Number(headers.get("Upload-Offset")) !== upload.offset) return new Response(null, { status: 409 });
      const size = (body as Blob).size;
      patches.push({ id: params.id ?? "", offset: upload.offset, size, authorization: headers.get("Authorization") });
      if (cut !== undefined) {
        upload.offset += cut;
        cut = undefined;
        throw new TypeError("The connection was reset.");
      }
      upload.offset += size;
      const answerHeaders = { "Upload-Offset": String(upload.offset), "Tus-Resumable": "1.0.0" };
      if (upload.offset < upload.length) return new Response(null, { status: 204, headers: answerHeaders });
      const media = answer(upload.metadata);
      upload.media = media.id;
      if (loseLastAnswer) throw new TypeError("The connection was reset.");
      return Response.json(media, { status: 200, headers: answerHeaders });
    },
    "DELETE /api/v1/uploads/:id": ({ params }) => {
      uploads.delete(params.id ?? "");
      return new Response(null, { status: 204 });
    },
  };
  return { uploads, patches, routes };
}
