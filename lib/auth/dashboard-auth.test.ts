import { describe, expect, it } from "vitest";
import { oauthVerifiedEmail } from "./dashboard-auth";

describe("oauthVerifiedEmail", () => {
  it("takes Google's email only when Google says it is verified", () => {
    expect(oauthVerifiedEmail("google", { email: "Ada@Example.com", email_verified: true }, null)).toBe("ada@example.com");
    expect(oauthVerifiedEmail("google", { email: "ada@example.com", email_verified: false }, "ada@example.com")).toBeNull();
    expect(oauthVerifiedEmail("google", { email: "ada@example.com" }, null)).toBeNull();
  });

  it("takes GitHub's primary email from the provider's user", () => {
    expect(oauthVerifiedEmail("github", { email: null }, "grace@example.com")).toBe("grace@example.com");
    expect(oauthVerifiedEmail("github", {}, null)).toBeNull();
    expect(oauthVerifiedEmail("github", {}, "not an email")).toBeNull();
  });

  it("trusts no other provider", () => {
    expect(oauthVerifiedEmail("other", { email: "x@example.com", email_verified: true }, "x@example.com")).toBeNull();
  });
});
