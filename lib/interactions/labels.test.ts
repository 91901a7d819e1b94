import { describe, expect, it } from "vitest";
import { eventLabel } from "./labels";
import { EVENT_TYPES, TRIGGERED_BY } from "./schema";

describe("eventLabel", () => {
  it("names every event and who made it in words, never the raw code", () => {
    for (const type of EVENT_TYPES)
      for (const by of TRIGGERED_BY) {
        const label = eventLabel(type, by);
        expect(label).not.toMatch(/_/);
        expect(label).toMatch(/^[A-Z]/);
      }
    expect(eventLabel("credential_viewed", "recipient")).toBe("Opened by the recipient");
    expect(eventLabel("credential_viewed", "guest")).toBe("Viewed by a guest");
    expect(eventLabel("credential_verified", "guest")).toBe("Verified by a guest");
    expect(eventLabel("credential_shared_to_twitter", "recipient")).toBe("Shared to X (Twitter) by the recipient");
    expect(eventLabel("credential_added_to_linkedin_profile", "recipient")).toBe("Added to the recipient's LinkedIn profile");
  });
});
