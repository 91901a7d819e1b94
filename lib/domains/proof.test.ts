import { describe, expect, it } from "vitest";
import { newVerificationToken, proofLine, readProof } from "./proof";

const token = "0123456789abcdef0123456789abcdef";

describe("the proof file", () => {
  it("is found on a line of its own, among others, with spaces, CRLF or a BOM around it", () => {
    expect(readProof(`${proofLine(token)}\n`, token)).toBe("found");
    expect(readProof(`\uFEFF${proofLine(token)}`, token)).toBe("found");
    expect(readProof(`# our issuers\r\ncredential-issuer-verification=ffff\r\n   ${proofLine(token)}  \r\n`, token)).toBe("found");
  });

  it("is not found inside a longer line, in another case, or with another token", () => {
    expect(readProof(`x${proofLine(token)}`, token)).toBe("absent");
    expect(readProof(`${proofLine(token)}0`, token)).toBe("other_token");
    expect(readProof(proofLine(token).toUpperCase(), token)).toBe("absent");
    expect(readProof("credential-issuer-verification=ffff", token)).toBe("other_token");
    expect(readProof(token, token)).toBe("absent");
    expect(readProof("", token)).toBe("absent");
  });

  it("uses fresh 128-bit tokens", () => {
    const a = newVerificationToken();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newVerificationToken()).not.toBe(a);
    expect(proofLine(a)).toBe(`credential-issuer-verification=${a}`);
  });
});
