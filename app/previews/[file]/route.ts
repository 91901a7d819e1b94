// GET/HEAD /previews/<digest>.png|.pdf — public, immutable, digest-versioned preview files.
import { errorSummary, log } from "@/lib/log";
import { PreviewNotFound, PreviewUnrenderable, previewBytes, type PreviewFormat } from "@/lib/previews/service";

const FILE = /^([0-9a-f]{40})\.(png|pdf)$/;

/** `attachment` with the name a person should get (an ASCII fallback plus the exact UTF-8 name). */
function attachment(name: string): string {
  const clean = name.replace(/[\u0000-\u001f\u007f"\\/]+/g, " ").trim().slice(0, 200) || "credential";
  const ascii = clean.normalize("NFKD").replace(/[^\x20-\x7e]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(clean)}`;
}

function problem(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status, headers: { "Cache-Control": "no-store" } });
}

export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  const match = FILE.exec((await params).file);
  if (!match) return problem(404, "not_found", "No such preview.");
  const [, digest, format] = match as unknown as [string, string, PreviewFormat];
  const etag = `"${digest}.${format}"`;
  const headers = { "Cache-Control": "public, max-age=31536000, immutable", ETag: etag };
  const ifNoneMatch = request.headers.get("if-none-match");
  try {
    // A 304 still requires the version to exist: a deleted credential's previews are gone.
    const { bytes, contentType } = await previewBytes(digest, format);
    if (ifNoneMatch && ifNoneMatch.split(",").some((t) => t.trim() === etag || t.trim() === "*")) {
      return new Response(null, { status: 304, headers });
    }
    // ?download=<file name>: the wallet's download buttons. The `download` attribute alone does not
    // work when the wallet is served from another origin than the previews.
    const download = new URL(request.url).searchParams.get("download");
    return new Response(new Uint8Array(bytes), {
      status: 200,
      headers: {
        ...headers,
        "Content-Type": contentType,
        "Content-Length": String(bytes.byteLength),
        ...(download ? { "Content-Disposition": attachment(download) } : {}),
      },
    });
  } catch (error) {
    if (error instanceof PreviewNotFound) return problem(404, "not_found", "No such preview.");
    if (error instanceof PreviewUnrenderable) return problem(422, "unsupported_text", error.message);
    log.error("preview_failed", { digest, format, ...errorSummary(error) });
    return problem(500, "internal_server_error", "The preview could not be rendered.");
  }
}
