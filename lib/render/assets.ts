// Images as the renderer takes them: bytes and pixel size, by the names the document uses. Reading
// them (from storage, an upload) is the caller's business; rendering does no I/O.

export interface RenderAsset {
  mimeType: "image/png" | "image/jpeg";
  data: Uint8Array;
  /** Pixel size of the image. */
  width: number;
  height: number;
}
export type RenderAssets = ReadonlyMap<string, RenderAsset> | Readonly<Record<string, RenderAsset>>;

export function getAsset(assets: RenderAssets, name: string): RenderAsset | undefined {
  return assets instanceof Map ? (assets as ReadonlyMap<string, RenderAsset>).get(name) : (assets as Record<string, RenderAsset>)[name];
}

const dataUris = new WeakMap<Uint8Array, string>();

/** The image as a `data:` URI (for SVG), encoded once per image. */
export function assetDataUri(asset: RenderAsset): string {
  let uri = dataUris.get(asset.data);
  if (!uri) {
    uri = `data:${asset.mimeType};base64,${Buffer.from(asset.data.buffer, asset.data.byteOffset, asset.data.byteLength).toString("base64")}`;
    dataUris.set(asset.data, uri);
  }
  return uri;
}
