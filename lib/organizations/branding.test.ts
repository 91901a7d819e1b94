import { describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";
import { ApiError } from "../core/errors";

await scratchDatabase("branding");

const { createOrganization } = await import("./service");
const { organizationBranding, updateOrganizationBranding } = await import("./branding");

const good = {
  linkedinOrganizationId: "1337",
  brandColor: "#0F766E",
  senderName: "Acme Registrar",
  contactEmail: "registrar@acme.example",
};

async function refusal(organizationId: string, input: Record<string, unknown>) {
  const error = await updateOrganizationBranding(organizationId, input).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return Object.fromEntries(((error as ApiError).details ?? []).map((d) => [d.path, d.message]));
}

describe("organization branding", () => {
  it("saves good values (normalized) and clears fields left empty", async () => {
    const org = await createOrganization({ slug: "brand-good" });
    expect(await organizationBranding(org.id)).toEqual({
      linkedinOrganizationId: null,
      brandColor: null,
      senderName: null,
      contactEmail: null,
    });
    await updateOrganizationBranding(org.id, { ...good, senderName: "  Acme Registrar " });
    expect(await organizationBranding(org.id)).toEqual({ ...good, brandColor: "#0f766e" });
    await updateOrganizationBranding(org.id, { linkedinOrganizationId: "", brandColor: " ", senderName: "", contactEmail: "" });
    expect(await organizationBranding(org.id)).toEqual({
      linkedinOrganizationId: null,
      brandColor: null,
      senderName: null,
      contactEmail: null,
    });
  });

  it("takes the id out of a pasted company admin address", async () => {
    const org = await createOrganization({ slug: "brand-url" });
    for (const pasted of ["https://www.linkedin.com/company/12345678/admin/", "linkedin.com/company/12345678", "0012345678"]) {
      await updateOrganizationBranding(org.id, { linkedinOrganizationId: pasted });
      expect((await organizationBranding(org.id)).linkedinOrganizationId).toBe("12345678");
    }
  });

  it("refuses bad values, each named, and saves none of the fields", async () => {
    const org = await createOrganization({ slug: "brand-bad" });
    await updateOrganizationBranding(org.id, good);
    const errors = await refusal(org.id, {
      linkedinOrganizationId: "https://www.linkedin.com/company/acme",
      brandColor: "red",
      senderName: "Acme\r\nBcc: victim@example.com",
      contactEmail: "not an address",
    });
    expect(Object.keys(errors).sort()).toEqual(["brandColor", "contactEmail", "linkedinOrganizationId", "senderName"]);
    expect(errors.linkedinOrganizationId).toMatch(/numeric id/);
    expect(errors.brandColor).toBe("must be a hex colour like #1d4ed8");
    expect(errors.senderName).toMatch(/single line/);
    expect(errors.contactEmail).toMatch(/valid email address/);
    // One bad field among good ones: nothing changes.
    const one = await refusal(org.id, { ...good, senderName: "New name", brandColor: "#12345" });
    expect(Object.keys(one)).toEqual(["brandColor"]);
    expect(await organizationBranding(org.id)).toEqual({ ...good, brandColor: "#0f766e" });
  });

  it.each([["0"], ["12345678901234567890"], ["12 34"], ["acme"], ["\u202e1337"]])("refuses the LinkedIn id %j", async (value) => {
    const org = await createOrganization({ slug: `brand-li-${Math.random().toString(36).slice(2, 8)}` });
    expect(Object.keys(await refusal(org.id, { linkedinOrganizationId: value }))).toEqual(["linkedinOrganizationId"]);
  });

  it("refuses a sender name over 100 characters and unknown fields", async () => {
    const org = await createOrganization({ slug: "brand-long" });
    expect(await refusal(org.id, { senderName: "x".repeat(101), website: "https://acme.example" })).toEqual({
      senderName: "must be at most 100 characters",
      website: "is not a known field",
    });
  });
});
