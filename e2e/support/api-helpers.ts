// Assertions and small builders shared by the API specs.
import { deflateSync } from "node:zlib";
import { expect, type APIRequestContext, type APIResponse } from "@playwright/test";

export type ErrorBody = { error: { code: string; message: string; details?: { path: string; message: string }[] } };

/** Asserts the error envelope: status, code, a message, and for validation errors the detail paths. */
export async function expectError(
  res: APIResponse,
  status: number,
  code: string,
  options: { paths?: string[]; exactPaths?: boolean; message?: RegExp } = {},
): Promise<ErrorBody> {
  const text = await res.text();
  let body: ErrorBody;
  try {
    body = JSON.parse(text) as ErrorBody;
  } catch {
    throw new Error(`expected a JSON error body (${status} ${code}), got ${res.status()}: ${text.slice(0, 300)}`);
  }
  expect(res.status(), `${res.url()} → ${text.slice(0, 500)}`).toBe(status);
  expect(res.headers()["content-type"] ?? "").toContain("application/json");
  expect(body.error?.code, text.slice(0, 500)).toBe(code);
  expect(typeof body.error.message).toBe("string");
  expect(body.error.message.length).toBeGreaterThan(0);
  if (options.message) expect(body.error.message).toMatch(options.message);
  if (code === "validation_error") {
    expect(Array.isArray(body.error.details), `details in ${text.slice(0, 500)}`).toBe(true);
    expect(body.error.details!.length).toBeGreaterThan(0);
    for (const d of body.error.details!) {
      expect(typeof d.path).toBe("string");
      expect(typeof d.message).toBe("string");
    }
    if (options.paths) {
      const paths = body.error.details!.map((d) => d.path);
      if (options.exactPaths) expect(paths.sort(), text).toEqual([...options.paths].sort());
      else for (const p of options.paths) expect(paths, `detail paths of ${text.slice(0, 500)}`).toContain(p);
    }
  }
  return body;
}

export async function expectStatus(res: APIResponse, status: number): Promise<any> {
  const text = await res.text();
  expect(res.status(), `${res.url()} → ${text.slice(0, 800)}`).toBe(status);
  return text ? JSON.parse(text) : undefined;
}

// ---- designs and groups -------------------------------------------------------------------------

export type Design = {
  id: string;
  name: string;
  type: "certificate" | "badge";
  previewUrl: string;
  createdAt: string;
  updatedAt: string;
  [k: string]: unknown;
};
export type Group = {
  id: string;
  name: string;
  learningEventUrl: string | null;
  description?: string | null;
  criteria?: string | null;
  language?: string | null;
  designIds: string[];
  certificateDesignId?: string | null;
  badgeDesignId?: string | null;
  createdAt: string;
  updatedAt: string;
};

export async function createDesign(
  api: APIRequestContext,
  type: "certificate" | "badge",
  extra: Record<string, unknown> = {},
): Promise<Design> {
  const res = await api.post("/v1/designs", { data: { name: `${type} ${Math.random().toString(36).slice(2, 8)}`, type, ...extra } });
  return expectStatus(res, 201);
}

export async function createGroup(api: APIRequestContext, body: Record<string, unknown>): Promise<Group> {
  const res = await api.post("/v1/groups", { data: { name: `Group ${Math.random().toString(36).slice(2, 8)}`, ...body } });
  return expectStatus(res, 201);
}

/** Every item of a list, following `next` cursors. */
export async function listAll<T>(api: APIRequestContext, path: string, limit = 100): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 1000; guard++) {
    const qs: string = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) }).toString();
    const body = await expectStatus(await api.get(`${path}?${qs}`), 200);
    items.push(...body.data);
    cursor = body.pagination.next;
    if (!cursor) return items;
  }
  throw new Error("pagination did not end");
}

// ---- images ------------------------------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A real, decodable RGBA PNG of one colour. */
export function makePng(width: number, height: number, rgba: [number, number, number, number] = [200, 30, 30, 255]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 4).fill(Buffer.from(rgba))]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

export function pngDataUri(width = 3, height = 2, rgba?: [number, number, number, number]): string {
  return `data:image/png;base64,${makePng(width, height, rgba).toString("base64")}`;
}

/** A small valid certificate document (A4 landscape is 842 x 595 points). */
export function certificateDocument(elements: unknown[] = []): Record<string, unknown> {
  return {
    version: 1,
    canvas: { size: "A4", orientation: "landscape" },
    elements: [
      { type: "text", x: 40, y: 40, width: 500, height: 40, text: "[recipient.name]", font: { family: "Inter", size: 24 } },
      ...elements,
    ],
  };
}

export function badgeDocument(elements: unknown[] = []): Record<string, unknown> {
  return {
    version: 1,
    canvas: { size: "square" },
    elements: [{ type: "text", x: 50, y: 50, width: 400, height: 40, text: "[group.name]", font: { size: 20 } }, ...elements],
  };
}
