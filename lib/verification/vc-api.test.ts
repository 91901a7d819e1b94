import { describe, expect, it } from "vitest";
import { EMPTY_FACTS, type Check, type VerificationReport } from "./report";
import { STATUS_LIST_TOO_SHORT, STATUS_LIST_UNREADABLE } from "./status-check";
import { vcApiResult } from "./vc-api";

function reportWith(failed: Check, verdict: VerificationReport["verdict"] = "invalid"): VerificationReport {
  return {
    verdict,
    headline: "Not valid",
    checks: [{ id: "format", outcome: "passed", summary: "ok", detail: null }, failed],
    facts: EMPTY_FACTS,
    checkedAt: new Date(0).toISOString(),
  };
}

const failed = (id: Check["id"], summary: string, detail: string | null = null): Check => ({ id, outcome: "failed", summary, detail });

// The problem types and codes the VC Data Model 2.0 and Bitstring Status List 1.0 define.
describe("the VC API's ProblemDetails", () => {
  it.each([
    [failed("format", "credentialSubject must not be empty"), "https://www.w3.org/TR/vc-data-model#MALFORMED_VALUE_ERROR", -66],
    [failed("format", "The document is not valid JSON."), "https://www.w3.org/TR/vc-data-model#PARSING_ERROR", -64],
    [failed("signature", "changed"), "https://www.w3.org/TR/vc-data-model#CRYPTOGRAPHIC_SECURITY_ERROR", -65],
    [failed("issuer", "another key"), "https://www.w3.org/TR/vc-data-model#CRYPTOGRAPHIC_SECURITY_ERROR", -65],
    [failed("validity", "expired"), "https://www.w3.org/TR/vc-data-model#RANGE_ERROR", -67],
    [failed("status", "revoked"), "https://www.w3.org/ns/credentials/status-list#STATUS_VERIFICATION_ERROR", -129],
    [failed("status", STATUS_LIST_UNREADABLE), "https://www.w3.org/ns/credentials/status-list#STATUS_RETRIEVAL_ERROR", -128],
    [failed("status", STATUS_LIST_TOO_SHORT), "https://www.w3.org/ns/credentials/status-list#STATUS_LIST_LENGTH_ERROR", -130],
  ])("a failed %j is %s", (check, type, code) => {
    const result = vcApiResult(reportWith(check));
    expect(result.verified).toBe(false);
    expect(result.errors).toEqual([expect.objectContaining({ type, code, title: check.summary })]);
  });

  it("names the standard's check names for what passed", () => {
    const result = vcApiResult(reportWith({ id: "signature", outcome: "passed", summary: "ok", detail: null }, "valid"));
    expect(result).toMatchObject({ verified: true, checks: ["dataModel", "proof"], errors: [] });
  });
});
