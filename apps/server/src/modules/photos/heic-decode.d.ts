// heic-decode ships no types; this covers the part the image pipeline uses.
declare module "heic-decode" {
  interface DecodedImage {
    width: number;
    height: number;
    /** RGBA, row by row, 4 bytes per pixel. */
    data: Uint8ClampedArray;
  }

  interface HeicImage {
    /** From the container's `ispe` property: known before any pixel is decoded. */
    width: number;
    height: number;
    decode(): Promise<DecodedImage>;
  }

  interface HeicImageList extends Array<HeicImage> {
    /** Frees the decoder's WebAssembly memory; call it once done with every image. */
    dispose(): void;
  }

  interface HeicDecode {
    (options: { buffer: Uint8Array }): Promise<DecodedImage>;
    all(options: { buffer: Uint8Array }): Promise<HeicImageList>;
  }

  const decode: HeicDecode;
  export default decode;
}
