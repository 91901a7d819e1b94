import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import encodePngChunks from "png-chunks-encode";
import extractPngChunks from "png-chunks-extract";
import { PNG } from "pngjs";
import { BakingError, bakeCredentialIntoPng, extractBakedCredential } from "./png-baking";

const LIMIT = 256 * 1024;

function tinyPng(): Buffer {
  const png = new PNG({ width: 3, height: 2 });
  png.data.fill(128);
  return PNG.sync.write(png);
}

/** A PNG with one hand-made iTXt chunk after IHDR. */
function withItxt(data: Buffer): Buffer {
  const chunks = extractPngChunks(tinyPng());
  chunks.splice(1, 0, { name: "iTXt", data });
  return Buffer.from(encodePngChunks(chunks));
}

const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(BakingError);
    return (error as BakingError).kind;
  }
  throw new Error("did not throw");
};

describe("baking", () => {
  it("round-trips UTF-8 text; the image still decodes; one chunk, uncompressed, right after IHDR", () => {
    const json = JSON.stringify({ name: "Zoë 张伟 ✓" });
    const baked = bakeCredentialIntoPng(tinyPng(), json);
    expect(extractBakedCredential(baked, LIMIT)).toBe(json);
    expect(PNG.sync.read(baked).width).toBe(3);
    const chunks = extractPngChunks(baked);
    expect(chunks[1]!.name).toBe("iTXt");
    expect(Buffer.from(chunks[1]!.data).subarray(0, 24)).toEqual(Buffer.from("openbadgecredential\0\0\0\0\0", "latin1"));
  });

  it("baking again replaces the credential rather than adding a second one", () => {
    const twice = bakeCredentialIntoPng(bakeCredentialIntoPng(tinyPng(), '{"a":1}'), '{"b":2}');
    expect(extractPngChunks(twice).filter((c) => c.name === "iTXt")).toHaveLength(1);
    expect(extractBakedCredential(twice, LIMIT)).toBe('{"b":2}');
  });

  it("reads a compressed chunk (other bakers write them), bounded by the limit", () => {
    const text = JSON.stringify({ x: "y".repeat(1000) });
    const header = Buffer.from("openbadgecredential\0\x01\x00en\0\0", "latin1");
    expect(extractBakedCredential(withItxt(Buffer.concat([header, deflateSync(text)])), LIMIT)).toBe(text);
    const bomb = Buffer.concat([header, deflateSync(Buffer.alloc(LIMIT * 4, 32))]);
    expect(failure(() => extractBakedCredential(withItxt(bomb), LIMIT))).toBe("malformed_chunk");
    const broken = Buffer.concat([header, Buffer.from("not zlib")]);
    expect(failure(() => extractBakedCredential(withItxt(broken), LIMIT))).toBe("malformed_chunk");
  });

  it("tells apart: not a PNG, a damaged PNG, no chunk, a malformed chunk", () => {
    expect(failure(() => extractBakedCredential(Buffer.from("%PDF-1.7"), LIMIT))).toBe("not_png");
    const damaged = bakeCredentialIntoPng(tinyPng(), "{}");
    damaged[40] = damaged[40]! ^ 0xff;
    expect(failure(() => extractBakedCredential(damaged, LIMIT))).toBe("corrupt_png");
    expect(failure(() => extractBakedCredential(tinyPng().subarray(0, 30), LIMIT))).toBe("corrupt_png");
    expect(failure(() => extractBakedCredential(tinyPng(), LIMIT))).toBe("no_credential");
    expect(failure(() => extractBakedCredential(withItxt(Buffer.from("openbadgecredential\0\0\0", "latin1")), LIMIT))).toBe(
      "malformed_chunk",
    );
    expect(failure(() => extractBakedCredential(withItxt(Buffer.from("openbadgecredential\0\0\0\0\0\xff\xfe", "latin1")), LIMIT))).toBe(
      "malformed_chunk",
    );
    expect(failure(() => bakeCredentialIntoPng(Buffer.from("nope"), "{}"))).toBe("not_png");
  });
});
