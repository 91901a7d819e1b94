import { beforeAll, describe, expect, it, vi } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";
import { ApiError } from "../core/errors";

// Watched, not replaced: the profile must find its images in one batch, not a lookup per credential.
vi.mock("../previews/credential-designs", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../previews/credential-designs")>();
  return { ...actual, shownCredentialDesigns: vi.fn(actual.shownCredentialDesigns), firstDesignPngs: vi.fn(actual.firstDesignPngs) };
});

await scratchDatabase("wallet-profiles", { PUBLIC_URL: "http://wallet.test" });

const { db } = await import("../db");
const { createOrganization } = await import("../organizations/service");
const { createDesign } = await import("../designs/service");
const { createGroup } = await import("../groups/service");
const credentials = await import("../credentials/service");
const service = await import("./service");
const { UpdateWalletProfileBody } = await import("./schema");
const designs = await import("../previews/credential-designs");
const { listWalletCredentials } = await import("../wallet/recipient-credentials");

type Org = Awaited<ReturnType<typeof createOrganization>>;
let org: Org;
let groupId: string;

beforeAll(async () => {
  org = await createOrganization({ slug: "profiles", plan: "premium", name: "Profile Academy" });
  const design = await createDesign(org, { name: "D", type: "certificate" });
  groupId = (await createGroup(org.id, { name: "Course", designIds: [design.id] })).id;
});

async function thrown(work: Promise<unknown>): Promise<ApiError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("the handle rule", () => {
  const parse = (handle: unknown) => UpdateWalletProfileBody.safeParse({ handle });
  it("takes 3..40 of a-z0-9- and folds ASCII capitals", () => {
    expect(parse("Ada-Lovelace-1815").data?.handle).toBe("ada-lovelace-1815");
    expect(parse("abc").success).toBe(true);
    expect(parse("a".repeat(40)).success).toBe(true);
  });
  it.each(["ab", "a".repeat(41), "ada_l", "ada l", "adé", "ad.a", "\u212Aelvin", "", "a b", "ada\u0000"])(
    "refuses %j, with one message",
    (handle) => {
      expect(parse(handle).error?.issues).toHaveLength(1);
    },
  );
  it.each(["admin", "Support", "official", "verify", "security", "no-reply"])(
    "refuses %j, a handle that could pass for the service or its staff",
    (handle) => {
      const issues = parse(handle).error?.issues;
      expect(issues).toHaveLength(1);
      expect(issues![0]!.message).toMatch(/reserved/);
    },
  );
  it("keeps reserved words only as whole handles: 'ada-support' is a person's", () => {
    expect(parse("ada-support").success).toBe(true);
  });
  it("refuses unknown fields and a blank display name", () => {
    expect(UpdateWalletProfileBody.safeParse({ nickname: "x" }).success).toBe(false);
    expect(UpdateWalletProfileBody.safeParse({ displayName: "   " }).success).toBe(false);
    expect(UpdateWalletProfileBody.safeParse({ displayName: "Ada\u202E" }).success).toBe(false);
  });
});

describe("profiles", () => {
  it("start private and empty, and cannot go public without a handle and a display name", async () => {
    expect(await service.walletProfile("new@example.com")).toEqual({ handle: null, displayName: null, public: false, url: null });
    const error = await thrown(service.updateWalletProfile("new@example.com", { public: true }));
    expect(error.code).toBe("validation_error");
    expect(error.details?.map((d) => d.path)).toEqual(["handle", "displayName"]);
    // Nothing was written.
    expect(await db().walletProfile.count({ where: { emailNormalized: "new@example.com" } })).toBe(0);
  });

  it("keep what a PATCH does not name, and give the public address only while public", async () => {
    const email = "keep@example.com";
    expect(await service.updateWalletProfile(email, { handle: "keep-me" })).toMatchObject({ handle: "keep-me", public: false, url: null });
    expect(await service.updateWalletProfile(email, { displayName: "Keep Me", public: true })).toEqual({
      handle: "keep-me",
      displayName: "Keep Me",
      public: true,
      url: "http://wallet.test/profiles/keep-me",
    });
    expect((await service.updateWalletProfile(email, { public: false })).url).toBeNull();
    expect(await service.publicProfile("keep-me")).toBeNull();
  });

  it("refuse a handle another recipient holds, also when both claim it at once", async () => {
    await service.updateWalletProfile("first@example.com", { handle: "taken" });
    const error = await thrown(service.updateWalletProfile("second@example.com", { handle: "taken" }));
    expect(error.details).toEqual([{ path: "handle", message: "is already taken; choose another" }]);
    // Its owner may send it again.
    await service.updateWalletProfile("first@example.com", { handle: "taken" });

    const racers = Array.from({ length: 6 }, (_, i) => service.updateWalletProfile(`racer${i}@example.com`, { handle: "raced" }));
    const outcomes = await Promise.allSettled(racers);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    for (const o of outcomes) if (o.status === "rejected") expect((o.reason as ApiError).code).toBe("validation_error");
  });

  it("list only the owner's issued, unrevoked, public credentials, newest first", async () => {
    const email = "holder@example.com";
    await service.updateWalletProfile(email, { handle: "holder", displayName: "Holder", public: true });
    const older = await credentials.createIssueCredential(org, {
      groupId,
      recipient: { name: "Holder", email: "Holder@Example.com" },
      issueDate: "2024-01-01",
    });
    const newer = await credentials.createIssueCredential(org, { groupId, recipient: { name: "Holder", email }, issueDate: "2025-01-01" });
    const revoked = await credentials.createIssueCredential(org, {
      groupId,
      recipient: { name: "Holder", email },
      issueDate: "2025-02-01",
    });
    await db().credential.update({ where: { id: revoked.id }, data: { revokedAt: new Date() } });
    const hidden = await credentials.createIssueCredential(org, { groupId, recipient: { name: "Holder", email } });
    await db().credential.update({ where: { id: hidden.id }, data: { visibility: "private" } });
    await credentials.createCredential(org, { groupId, recipient: { name: "Holder", email } });
    await credentials.createIssueCredential(org, { groupId, recipient: { name: "Other", email: "other@example.com" } });

    vi.mocked(designs.shownCredentialDesigns).mockClear();
    vi.mocked(designs.firstDesignPngs).mockClear();
    const profile = await service.publicProfile("HOLDER");
    // One batched lookup for every card's image, none per credential.
    expect(designs.shownCredentialDesigns).not.toHaveBeenCalled();
    expect(designs.firstDesignPngs).toHaveBeenCalledTimes(1);
    expect(profile?.displayName).toBe("Holder");
    expect(profile?.credentials.map((c) => c.publicId)).toEqual([newer.publicId, older.publicId]);
    expect(profile?.credentials[0]).toMatchObject({
      title: "Course",
      issuer: { name: "Profile Academy", domain: null },
      status: "issued",
      url: `http://wallet.test/credentials/${newer.publicId}`,
    });
    expect(profile?.credentials[0]?.image?.url).toMatch(/\/previews\/.+\.png$/);
    expect(profile?.credentials[0]?.image).toMatchObject({ width: expect.any(Number), height: expect.any(Number) });
    // The same picture the recipient's own list shows.
    const listed = await listWalletCredentials(email, { limit: 10 });
    expect(profile?.credentials[0]?.image?.url).toBe(listed.data.find((c) => c.publicId === newer.publicId)?.imageUrl);
    expect(await service.publicProfile("nobody")).toBeNull();
    expect(await service.publicProfile("no")).toBeNull();
  });
});
