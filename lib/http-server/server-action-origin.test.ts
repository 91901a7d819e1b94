import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { crossOriginServerAction } from "./server-action-origin";

const request = (headers: Record<string, string>, method = "POST") =>
  ({ method, headers: { host: "app.example:3000", ...headers } }) as unknown as IncomingMessage;
const action = { "next-action": "7f00", "content-type": "text/plain;charset=UTF-8" };

describe("crossOriginServerAction", () => {
  it("names the Origin of a server action from another site, a sandboxed page or an unreadable Origin", () => {
    for (const origin of ["http://evil.example", "null", "not a url", "http://app.example:3001", "https://app.example"]) {
      expect(crossOriginServerAction(request({ ...action, origin }), "/dashboard/settings"), origin).toBe(origin);
    }
    // A form posted before scripts loaded names its action in the body, not a header.
    expect(
      crossOriginServerAction(request({ "content-type": "multipart/form-data; boundary=x", origin: "http://evil.example" }), "/signup"),
    ).toBe("http://evil.example");
  });

  it("lets same-origin actions through, as Next compares them: X-Forwarded-Host first, else Host", () => {
    expect(crossOriginServerAction(request({ ...action, origin: "http://app.example:3000" }), "/dashboard")).toBeNull();
    const proxied = { ...action, origin: "https://issuer.example", "x-forwarded-host": "issuer.example, inner.local" };
    expect(crossOriginServerAction(request(proxied), "/dashboard")).toBeNull();
  });

  it("leaves alone what is no server action, or has no Origin (Next decides)", () => {
    expect(crossOriginServerAction(request(action), "/dashboard")).toBeNull();
    expect(crossOriginServerAction(request({ ...action, origin: "http://evil.example" }, "GET"), "/dashboard")).toBeNull();
    expect(
      crossOriginServerAction(request({ "content-type": "application/json", origin: "http://evil.example" }), "/dashboard"),
    ).toBeNull();
    // Route handlers run no actions: the API keeps its own checks.
    for (const path of ["/v1/credentials", "/api/verify"]) {
      expect(
        crossOriginServerAction(
          request({ ...action, "content-type": "multipart/form-data; boundary=x", origin: "http://evil.example" }),
          path,
        ),
      ).toBeNull();
    }
  });
});
