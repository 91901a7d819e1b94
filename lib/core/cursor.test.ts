import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor";

process.env.APP_SECRET = "test-secret-test-secret-test-secret-123";

describe("cursors", () => {
  it("round-trip within their list", () => {
    const c = encodeCursor("groups", { t: "2026-01-01T00:00:00.000Z", id: "grp_1", d: "next" });
    expect(decodeCursor("groups", c)).toMatchObject({ t: "2026-01-01T00:00:00.000Z", id: "grp_1", d: "next" });
  });

  it("are refused by another list", () => {
    expect(decodeCursor("designs", encodeCursor("groups", { id: "x" }))).toBeNull();
  });

  it("are refused when garbled or forged", () => {
    const c = encodeCursor("groups", { id: "grp_1" });
    const [payload, mac] = c.split(".");
    const forged = Buffer.from(JSON.stringify({ s: "groups", id: "grp_2" })).toString("base64url");
    expect(decodeCursor("groups", `${forged}.${mac}`)).toBeNull();
    expect(decodeCursor("groups", `${payload}.AAAA${mac!.slice(4)}`)).toBeNull();
    expect(decodeCursor("groups", "not-a-cursor")).toBeNull();
    expect(decodeCursor("groups", `${c}.extra`)).toBeNull();
  });
});
