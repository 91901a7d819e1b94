// Sign-up through the domain function the form's action calls: the per-address limit, and that a
// refused sign-up writes nothing.
import { describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("accounts");

const { db } = await import("../db");
const { signUp } = await import("./service");
const { ApiError } = await import("../core/errors");

const account = (n: string) => ({
  name: "Ada",
  email: `ada.${n}.${Math.random().toString(36).slice(2)}@example.com`,
  password: "correct horse battery",
  organizationName: `Org ${n}`,
});

async function refusal(work: Promise<unknown>): Promise<InstanceType<typeof ApiError>> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as InstanceType<typeof ApiError>;
}

describe("sign-up", () => {
  it("10 from one address, then refused with when to try again; nothing written; another address is not held up", async () => {
    const address = "198.51.100.7";
    for (let i = 0; i < 10; i++) await signUp(account(`a${i}`), { clientAddress: address });
    const users = await db().user.count();
    const organizations = await db().organization.count();

    const eleventh = account("eleventh");
    const error = await refusal(signUp(eleventh, { clientAddress: address }));
    expect(error.code).toBe("rate_limited");
    expect(error.message).toMatch(/^Too many sign-ups from your network\. Please try again in \d+ minutes?\.$/);
    expect(Number(error.headers?.["Retry-After"])).toBeGreaterThan(0);
    expect(await db().user.count()).toBe(users);
    expect(await db().organization.count()).toBe(organizations);
    expect(await db().user.findUnique({ where: { email: eleventh.email } })).toBeNull();

    await signUp(account("elsewhere"), { clientAddress: "198.51.100.8" });
    expect(await db().user.count()).toBe(users + 1);
  });

  it("IPv6 addresses count by their /64: another address of the same host is refused too", async () => {
    for (let i = 0; i < 10; i++) await signUp(account(`v6-${i}`), { clientAddress: `2001:db8:7:7::${i + 1}` });
    expect((await refusal(signUp(account("v6-next"), { clientAddress: "2001:db8:7:7:ffff::1" }))).code).toBe("rate_limited");
    await signUp(account("v6-other"), { clientAddress: "2001:db8:7:8::1" });
  });

  it("attempts count, not only accounts made: asking which emails are taken is limited too", async () => {
    const taken = account("taken");
    await signUp(taken, { clientAddress: "203.0.113.1" });
    const address = "203.0.113.2";
    for (let i = 0; i < 10; i++) {
      const error = await refusal(signUp({ ...taken, organizationName: `Try ${i}` }, { clientAddress: address }));
      expect(error.code).toBe("validation_error");
    }
    expect((await refusal(signUp({ ...taken, organizationName: "Once more" }, { clientAddress: address }))).code).toBe("rate_limited");
  });
});
