import type { IncomingMessage } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { keptAnswer, publicFaceOf } from "./public-faces";

// The issuer page's key without a database: its version as the query would read it.
vi.mock("../public-faces/versions", async (original) => ({
  ...(await original<typeof import("../public-faces/versions")>()),
  issuerProfileVersion: async (slug: string) => (slug === "acme" ? "2026-11-28|1|-|-|-|3" : null),
}));

const PUBLIC_ID = "dd6fd68a-b89a-446a-a804-882fe4083fc3";

function request(url: string, init: { method?: string; headers?: Record<string, string> } = {}): IncomingMessage {
  return { method: init.method ?? "GET", url, headers: init.headers ?? {} } as unknown as IncomingMessage;
}

const faceOf = (url: string, init?: { method?: string; headers?: Record<string, string> }) => {
  const face = publicFaceOf(request(url, init), url.split("?")[0]!);
  return face ? { kind: face.kind, id: face.id, page: face.page } : null;
};

describe("publicFaceOf", () => {
  it("names the wallet page and the documents it caches", () => {
    expect(faceOf(`/credentials/${PUBLIC_ID}`)).toEqual({ kind: "wallet-page", id: PUBLIC_ID, page: true });
    expect(faceOf(`/credentials/${PUBLIC_ID}/credential.json`)).toEqual({ kind: "credential.json", id: PUBLIC_ID, page: false });
    expect(faceOf("/organizations/acme/did.json")).toEqual({ kind: "did.json", id: "acme", page: false });
    expect(faceOf("/organizations/acme/did-configuration.json")).toEqual({ kind: "did-configuration.json", id: "acme", page: false });
    expect(faceOf("/organizations/acme/status/3")).toEqual({ kind: "status-list", id: "acme/3", page: false });
    expect(faceOf("/.well-known/openid-credential-issuer/organizations/acme")).toEqual({
      kind: "oid4vci-metadata",
      id: "acme",
      page: false,
    });
    expect(faceOf("/profiles/ada-l")).toEqual({ kind: "profile-page", id: "ada-l", page: true });
    expect(faceOf("/organizations/acme")).toEqual({ kind: "issuer-page", id: "acme", page: true });
    expect(faceOf("/organizations/acme?utm_source=post")?.kind).toBe("issuer-page");
    expect(faceOf("/organizations/acme?lang=fr")).toBeNull();
    expect(faceOf("/organizations/org_123/logo")).toBeNull();
  });

  it("keys the issuer's profile page once for every reader: it is in English whatever they read", async () => {
    const keyFor = (headers: Record<string, string>) =>
      publicFaceOf(request("/organizations/acme", { headers }), "/organizations/acme")!.key(request("/organizations/acme", { headers }));
    const english = await keyFor({ "accept-language": "en" });
    expect(english).toEqual({ version: "2026-11-28|1|-|-|-|3", locale: "en", viewer: "anyone", contentLanguage: "en" });
    expect(await keyFor({ "accept-language": "fr-FR,fr;q=0.9" })).toEqual(english);
    expect(await keyFor({ "accept-language": "ja", cookie: "cis.lang=ar" })).toEqual(english);
    expect(await publicFaceOf(request("/organizations/nobody"), "/organizations/nobody")!.key(request("/organizations/nobody"))).toBeNull();
  });

  it("leaves other methods, Next's own navigation requests and server actions to Next", () => {
    expect(faceOf(`/credentials/${PUBLIC_ID}`, { method: "HEAD" })).toBeNull();
    expect(faceOf(`/credentials/${PUBLIC_ID}`, { method: "POST" })).toBeNull();
    for (const header of ["rsc", "next-router-state-tree", "next-router-prefetch", "next-router-segment-prefetch", "next-action"]) {
      expect(faceOf(`/credentials/${PUBLIC_ID}`, { headers: { [header]: "1" } })).toBeNull();
    }
  });

  it("keeps a page only for queries it is known to ignore", () => {
    expect(faceOf(`/credentials/${PUBLIC_ID}?recipient=true`)?.kind).toBe("wallet-page");
    expect(faceOf(`/credentials/${PUBLIC_ID}?utm_source=linkedin&trk=public_post`)?.kind).toBe("wallet-page");
    expect(faceOf(`/credentials/${PUBLIC_ID}?lang=fr`)).toBeNull();
    expect(faceOf(`/credentials/${PUBLIC_ID}?_rsc=abc`)).toBeNull();
    expect(faceOf(`/credentials/${PUBLIC_ID}/credential.json?x=1`)).toBeNull();
    expect(faceOf("/organizations/acme/did.json?x=1")).toBeNull();
  });

  it("names nothing for malformed ids or other paths", () => {
    expect(faceOf("/credentials/not-a-uuid")).toBeNull();
    expect(faceOf(`/credentials/${PUBLIC_ID}/badge.png`)).toBeNull();
    expect(faceOf(`/credentials/${PUBLIC_ID.toUpperCase()}`)).toBeNull();
    expect(faceOf("/organizations/Acme/did.json")).toBeNull();
    expect(faceOf("/organizations/acme/status/0")).toBeNull();
    expect(faceOf("/organizations/acme/logo")).toBeNull();
    expect(faceOf("/profiles/AB")).toBeNull();
    expect(faceOf("/wallet")).toBeNull();
    expect(faceOf("/v1/credentials")).toBeNull();
  });
});

describe("keptAnswer", () => {
  const json = Buffer.from(
    JSON.stringify({ "@context": ["https://www.w3.org/ns/did/v1"], id: "did:web:example.com", service: [] }).repeat(4),
  );
  const headers: [string, string][] = [["content-type", "application/json"]];

  it("keeps a document in both codings, each holding only its own bytes, and counts them all", () => {
    const kept = keptAnswer(headers, [json], '"abc"', json);
    expect(brotliDecompressSync(kept.coded.br!).equals(json)).toBe(true);
    expect(gunzipSync(kept.coded.gzip!).equals(json)).toBe(true);
    // zlib hands back a view of its 16 KiB chunk; what is kept must not hold the rest of it.
    expect(kept.coded.br!.buffer.byteLength).toBe(kept.coded.br!.length);
    expect(kept.coded.gzip!.buffer.byteLength).toBe(kept.coded.gzip!.length);
    expect(kept.bytes).toBe(json.length + kept.coded.br!.length + kept.coded.gzip!.length);
  });

  it("keeps no coding for a page, a type not worth it, or a body compression would not shrink", () => {
    expect(keptAnswer(headers, [json], null, json).coded).toEqual({});
    expect(keptAnswer([["content-type", "image/png"]], [json], '"abc"', json).coded).toEqual({});
    const tiny = Buffer.from("{}");
    expect(keptAnswer(headers, [tiny], '"abc"', tiny).coded).toEqual({});
  });
});
