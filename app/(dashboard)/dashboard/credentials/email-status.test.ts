import { describe, expect, it } from "vitest";
import { emailStatusOf } from "./email-status";

const at = new Date("2026-03-04T05:06:07Z");
const email = (status: string, attempts = 0, sentAt: Date | null = null) => ({ id: "mail_1", status, attempts, sentAt, createdAt: at });

describe("emailStatusOf", () => {
  it("names each outbox state, and no email as not sent", () => {
    expect(emailStatusOf(undefined).label).toBe("not sent");
    expect(emailStatusOf(email("queued")).label).toBe("queued");
    expect(emailStatusOf(email("sent", 1, at))).toEqual({
      label: "sent",
      sentAt: at.toISOString(),
      description: "Sent on 2026-03-04 05:06 UTC.",
    });
    expect(emailStatusOf(email("failed", 8)).label).toBe("failed");
    expect(emailStatusOf(email("cancelled")).label).toBe("cancelled");
  });

  it("says when a queued email is being retried", () => {
    expect(emailStatusOf(email("queued", 2)).description).toMatch(/2 attempts failed/);
    expect(emailStatusOf(email("failed", 1)).description).toMatch(/after 1 attempt;/);
  });
});
