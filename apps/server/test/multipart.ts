/** multipart/form-data bodies written by hand, as browsers send them, for upload tests. */

export const multipartBoundary = "----memory-box-test-boundary";
export const multipartContentType = `multipart/form-data; boundary=${multipartBoundary}`;

/** One part: a form field `name` (a file when it has a `filename`), with its headers and bytes. */
export interface MultipartPart {
  name: string | undefined;
  filename: string | undefined;
  contentType: string | undefined;
  data: Buffer;
}

/** The parts in order; `closing: false` leaves out the closing boundary, as a broken-off upload would. */
export function multipartPayload(parts: MultipartPart[], closing = true): Buffer {
  const chunks: Buffer[] = [];
  for (const { name, filename, contentType, data } of parts) {
    const disposition = [
      "form-data",
      ...(name === undefined ? [] : [`name="${name}"`]),
      ...(filename === undefined ? [] : [`filename="${filename}"`]),
    ].join("; ");
    chunks.push(
      Buffer.from(
        `--${multipartBoundary}\r\nContent-Disposition: ${disposition}\r\n${contentType === undefined ? "" : `Content-Type: ${contentType}\r\n`}\r\n`,
        "latin1",
      ),
      data,
      Buffer.from("\r\n"),
    );
  }
  if (closing) chunks.push(Buffer.from(`--${multipartBoundary}--\r\n`));
  return Buffer.concat(chunks);
}
