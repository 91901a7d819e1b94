// Serving previews (lib/previews/service.ts) against a real temporary SQLite database and file store:
// concurrent first requests for one digest render once, later ones read the stored file, and a
// deleted credential's previews are gone. Renders are counted by wrapping the renderer's exports
// (the real renderer still draws every file).
import { existsSync } from "node:fs";
import path from "node:path";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

const counts = vi.hoisted(() => ({ png: 0, pdf: 0, gate: null as Promise<void> | null }));

vi.mock("../render/render", async (importOriginal) => {
  const real = await importOriginal<typeof import("../render/render")>();
  return {
    ...real,
    renderPng: async (...args: Parameters<typeof real.renderPng>) => {
      counts.png++;
      if (counts.gate) await counts.gate;
      return real.renderPng(...args);
    },
    renderPdf: async (...args: Parameters<typeof real.renderPdf>) => {
      counts.pdf++;
      if (counts.gate) await counts.gate;
      return real.renderPdf(...args);
    },
  };
});

const dir = await scratchDatabase("previews");

const { createOrganization } = await import("../organizations/service");
const { createDesign } = await import("../designs/service");
const { createGroup } = await import("../groups/service");
const credentials = await import("../credentials/service");
const { credentialDesigns } = await import("./credential-designs");
const { previewBytes, previewKey, PreviewNotFound } = await import("./service");

type Org = Awaited<ReturnType<typeof createOrganization>>;
let org: Org;
let groupId: string;

/** What a request for a preview gets, in a form that prints well in a failed assertion. */
async function outcome(digest: string, format: "png" | "pdf"): Promise<string> {
  try {
    const { bytes } = await previewBytes(digest, format);
    return `200 (${bytes.length} bytes)`;
  } catch (error) {
    if (error instanceof PreviewNotFound) return "not found";
    throw error;
  }
}

const digestOf = (url: string) => /\/previews\/([0-9a-f]{40})\.(png|pdf)$/.exec(url)![1]!;

/** A new credential in the group and the digest of each of its designs' previews. */
async function freshDigests(name: string): Promise<{ credentialId: string; digests: string[] }> {
  const credential = await credentials.createCredential(org, { groupId, recipient: { name } });
  const designs = await credentialDesigns(org, credential.id);
  return { credentialId: credential.id, digests: designs.map((d) => digestOf(d.previews[0]!.url)) };
}

beforeAll(async () => {
  org = await createOrganization({ slug: "previews", plan: "premium" });
  const certificate = await createDesign(org, { name: "Certificate", type: "certificate" });
  const badge = await createDesign(org, { name: "Badge", type: "badge" });
  groupId = (await createGroup(org.id, { name: "Course", designIds: [certificate.id, badge.id] })).id;
});

beforeEach(() => {
  counts.png = 0;
  counts.pdf = 0;
  counts.gate = null;
});

describe("previewBytes", () => {
  it("renders once for 10 concurrent first requests of one digest; all get the same bytes", async () => {
    const { digests } = await freshDigests("Ada Lovelace");
    const results = await Promise.all(Array.from({ length: 10 }, () => previewBytes(digests[0]!, "png")));
    expect(counts.png).toBe(1);
    expect(counts.pdf).toBe(0);
    for (const r of results) {
      expect(r.contentType).toBe("image/png");
      expect(r.bytes.equals(results[0]!.bytes)).toBe(true);
    }
    expect(results[0]!.bytes.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    expect(existsSync(path.join(dir, "previews", previewKey(digests[0]!, "png")))).toBe(true);

    // Later requests read the stored file: no render.
    const again = await Promise.all(Array.from({ length: 5 }, () => previewBytes(digests[0]!, "png")));
    expect(counts.png).toBe(1);
    for (const r of again) expect(r.bytes.equals(results[0]!.bytes)).toBe(true);
  });

  it("shares a render per digest and format, not across them", async () => {
    const { digests } = await freshDigests("Grace Hopper");
    const calls = digests.flatMap((digest) =>
      (["png", "pdf"] as const).flatMap((format) =>
        Array.from({ length: 5 }, () => previewBytes(digest, format).then((r) => [digest, format, r] as const)),
      ),
    );
    const results = await Promise.all(calls);
    // Two designs, two formats: four renders for twenty requests.
    expect(counts.png).toBe(2);
    expect(counts.pdf).toBe(2);
    for (const [digest, format, r] of results) {
      const first = results.find(([d, f]) => d === digest && f === format)![2];
      expect(r.bytes.equals(first.bytes)).toBe(true);
      expect(r.contentType).toBe(format === "png" ? "image/png" : "application/pdf");
    }
  });

  it("while a render is in flight, later arrivals join it instead of starting another", async () => {
    const { digests } = await freshDigests("Katherine Johnson");
    let release!: () => void;
    counts.gate = new Promise<void>((r) => (release = r));
    const early = previewBytes(digests[1]!, "pdf");
    await new Promise((r) => setTimeout(r, 50));
    const late = Array.from({ length: 9 }, () => previewBytes(digests[1]!, "pdf"));
    await new Promise((r) => setTimeout(r, 50));
    expect(counts.pdf).toBe(1);
    release();
    const all = await Promise.all([early, ...late]);
    expect(counts.pdf).toBe(1);
    for (const r of all) expect(r.bytes.equals(all[0].bytes)).toBe(true);
    expect(all[0].bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });

  it("a never-issued digest: every concurrent caller gets PreviewNotFound, nothing is rendered or stored", async () => {
    const digest = "0123456789abcdef0123456789abcdef01234567";
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => previewBytes(digest, "png")));
    for (const o of outcomes) {
      expect(o.status).toBe("rejected");
      expect((o as PromiseRejectedResult).reason).toBeInstanceOf(PreviewNotFound);
    }
    expect(counts.png).toBe(0);
    expect(existsSync(path.join(dir, "previews", previewKey(digest, "png")))).toBe(false);
    await expect(previewBytes(digest, "png")).rejects.toBeInstanceOf(PreviewNotFound);
  });

  it("a smaller width (?w=) is its own cached file: a narrower, smaller PNG, rendered once, gone with the credential", async () => {
    const { credentialId, digests } = await freshDigests("Mary Somerville");
    const full = await previewBytes(digests[0]!, "png");
    const small = await Promise.all(Array.from({ length: 3 }, () => previewBytes(digests[0]!, "png", 480)));
    expect(counts.png).toBe(2);
    const widthOf = (png: Buffer) => png.readUInt32BE(16);
    expect(widthOf(full.bytes)).toBe(1600);
    expect(widthOf(small[0]!.bytes)).toBe(480);
    expect(small[0]!.bytes.length).toBeLessThan(full.bytes.length / 2);
    expect(existsSync(path.join(dir, "previews", previewKey(digests[0]!, "png", 480)))).toBe(true);
    await expect(previewBytes(digests[0]!, "pdf", 480)).rejects.toThrow(/only PNG/);
    await credentials.deleteCredential(org, credentialId);
    expect(existsSync(path.join(dir, "previews", previewKey(digests[0]!, "png", 480)))).toBe(false);
    await expect(previewBytes(digests[0]!, "png", 480)).rejects.toBeInstanceOf(PreviewNotFound);
  });

  it("a deleted credential's previews are gone, cached ones included", async () => {
    const { credentialId, digests } = await freshDigests("Alan Turing");
    await previewBytes(digests[0]!, "png");
    await credentials.deleteCredential(org, credentialId);
    expect(existsSync(path.join(dir, "previews", previewKey(digests[0]!, "png")))).toBe(false);
    expect(await outcome(digests[0]!, "png")).toBe("not found");
    expect(await outcome(digests[1]!, "pdf")).toBe("not found");
  });

  // Known bug (reported, not fixed here): a render in flight when its credential is deleted stores its
  // file after the delete removed the files, and previewBytes serves any stored file without asking
  // the database, so the deleted credential's URL answers 200 forever.
  it("a render in flight during the credential's delete does not leave a servable file behind", async () => {
    const { credentialId, digests } = await freshDigests("Hedy Lamarr");
    let release!: () => void;
    counts.gate = new Promise<void>((r) => (release = r));
    const inFlight = previewBytes(digests[0]!, "png");
    await new Promise((r) => setTimeout(r, 50));
    expect(counts.png).toBe(1);
    await credentials.deleteCredential(org, credentialId);
    release();
    await inFlight.catch(() => undefined);
    expect(await outcome(digests[0]!, "png")).toBe("not found");
  });
});
