import { createServer, request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../core/json-text";
import { actionBodyKind, checkActionBody, replayedRequest, SERVER_ACTION_BODY_LIMIT } from "./server-action-body";

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

/** A multipart body as a browser sends it, with its Content-Type. */
async function multipart(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type")! };
}

describe("actionBodyKind", () => {
  it("decodes as Next does: multipart forms, other bodies of fetch actions as one text, never URL-encoded forms", () => {
    expect(actionBodyKind("multipart/form-data; boundary=x", false)).toBe("multipart");
    expect(actionBodyKind("multipart/form-data; boundary=x", true)).toBe("multipart");
    expect(actionBodyKind("text/plain;charset=UTF-8", true)).toBe("text");
    expect(actionBodyKind(undefined, true)).toBe("text");
    expect(actionBodyKind("text/plain;charset=UTF-8", false)).toBeNull();
    expect(actionBodyKind("application/x-www-form-urlencoded", true)).toBeNull();
  });
});

describe("checkActionBody", () => {
  it("refuses JSON-encoded arguments nested deeper than the limit, in a text body", async () => {
    const deep = await checkActionBody(Buffer.from(`[${nested(300_000)}]`), "text/plain;charset=UTF-8", "text");
    expect(deep).toMatchObject({ ok: false, field: null, tooDeep: { maxDepth: MAX_JSON_DEPTH } });
    expect(await checkActionBody(Buffer.from(`[${nested(MAX_JSON_DEPTH - 1)}]`), undefined, "text")).toEqual({ ok: true });
    expect(await checkActionBody(Buffer.from(`[null,"$K1"]`), undefined, "text")).toEqual({ ok: true });
  });

  it("refuses a multipart body one of whose fields nests too deep, and names the field", async () => {
    const form = new FormData();
    form.append("1_name", "Ada");
    form.append("0", `[null,${nested(1000)}]`);
    const { body, contentType } = await multipart(form);
    expect(await checkActionBody(body, contentType, "multipart")).toMatchObject({ ok: false, field: "0" });
  });

  it("passes a normal form with a binary file full of brackets", async () => {
    const form = new FormData();
    form.append("_1_name", "Logo [draft]");
    form.append("_1_file", new Blob([Buffer.from(nested(50_000)), Buffer.from([0, 255, 0x5b, 0x7b])], { type: "image/png" }), "logo.png");
    form.append("0", '[null,"$K1"]');
    const { body, contentType } = await multipart(form);
    expect(await checkActionBody(body, contentType, "multipart")).toEqual({ ok: true });
  });

  it("says so when a multipart body cannot be read as a form", async () => {
    const body = Buffer.from('--x\r\nContent-Disposition: form-data; name="0"\r\n\r\n[]');
    expect(await checkActionBody(body, "multipart/form-data; boundary=x", "multipart")).toEqual({ ok: false, unreadable: true });
  });
});

describe("SERVER_ACTION_BODY_LIMIT", () => {
  it("is Next's own server action body limit, as Next reads next.config.mjs", async () => {
    // Untyped modules, loaded by name: Next's own size parser, and the configuration it is given.
    const bytes = createRequire(import.meta.url)("next/dist/compiled/bytes") as { parse: (size: string) => number };
    const configPath: string = "../../next.config.mjs";
    const config = (await import(configPath)) as { default: { experimental: { serverActions: { bodySizeLimit: string } } } };
    expect(bytes.parse(config.default.experimental.serverActions.bodySizeLimit)).toBe(SERVER_ACTION_BODY_LIMIT);
  });
});

describe("replayedRequest", () => {
  it("gives a handler the same method, target, headers, socket and body bytes", async () => {
    const payload = Buffer.concat([Buffer.from("[null,"), Buffer.from([0xe2, 0x82, 0xac]), Buffer.from("]")]);
    const seen = await new Promise<{ replay: IncomingMessage; original: IncomingMessage; body: Buffer }>((resolve, reject) => {
      const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          const replay = replayedRequest(req, Buffer.concat(chunks));
          const again: Buffer[] = [];
          replay.on("data", (c: Buffer) => again.push(c));
          replay.on("end", () => {
            res.end("ok");
            server.close();
            resolve({ replay, original: req, body: Buffer.concat(again) });
          });
        });
      });
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        const req = httpRequest({ port, host: "127.0.0.1", method: "POST", path: "/signup?x=1", headers: { "Next-Action": "7f00" } });
        req.on("error", reject);
        req.on("response", (r) => r.resume());
        req.end(payload);
      });
    });
    expect(seen.body.equals(payload)).toBe(true);
    expect(seen.replay.method).toBe("POST");
    expect(seen.replay.url).toBe("/signup?x=1");
    expect(seen.replay.headers["next-action"]).toBe("7f00");
    expect(seen.replay.socket).toBe(seen.original.socket);
    expect(seen.replay.complete).toBe(true);
  });
});
