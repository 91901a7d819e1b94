// The server's own answers, through a real HTTP server: the envelope for programs, a page for people,
// the request id on both.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isApiPath, sendNotFound, sendServerError } from "./answers";

let answer: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
const server = createServer((req, res) => {
  req.headers["x-request-id"] = "req_test1"; // server.ts settles it before anything answers
  answer(req, res);
});
let base = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("isApiPath", () => {
  it("is true for the API, its public routes, logos and previews, and false for pages", () => {
    for (const path of [
      "/v1",
      "/v1/groups",
      "/api/wallet/events",
      "/organizations/x/logo",
      "/previews/a.png",
      "/credentials/x/credential.json",
      "/credentials/x/badge.png",
      "/credentials/x/qr.svg",
      "/credentials/x/qr.png",
    ])
      expect(isApiPath(path), path).toBe(true);
    for (const path of ["/", "/v1x", "/credentials/x", "/credentials/x/other.json", "/dashboard", "/apix", "/docs"])
      expect(isApiPath(path), path).toBe(false);
  });
});

describe("sendServerError", () => {
  it("answers an API path with the internal_server_error envelope quoting the request id", async () => {
    answer = (req, res) => sendServerError(req, res, "/v1/groups");
    const res = await fetch(`${base}/v1/groups`);
    expect(res.status).toBe(500);
    expect(res.headers.get("x-request-id")).toBe("req_test1");
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.json()).toEqual({
      error: {
        code: "internal_server_error",
        message: "Something went wrong on our side. Quote request id req_test1 if you contact support.",
      },
    });
  });

  it("answers a page with a small HTML page quoting the request id", async () => {
    answer = (req, res) => sendServerError(req, res, "/dashboard");
    const res = await fetch(`${base}/dashboard`);
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toContain("req_test1");
  });
});

describe("sendNotFound", () => {
  it("answers not_found in the envelope for API paths and a page for the others", async () => {
    answer = (req, res) => sendNotFound(req, res, new URL(req.url!, base).pathname);
    const api = await fetch(`${base}/v1/credentials/x`);
    expect(api.status).toBe(404);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe("not_found");
    const page = await fetch(`${base}/credentials/x`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("Page not found");
    expect(page.headers.get("x-request-id")).toBe("req_test1");
  });
});
