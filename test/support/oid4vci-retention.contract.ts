// Sweeping spent OpenID4VCI rows (lib/oid4vci/retention.ts), the same tests on SQLite
// (lib/oid4vci/retention.test.ts) and PostgreSQL (*.postgres.test.ts). Call after the test database is
// set up; modules are imported lazily so they see it.
import { describe, expect, it } from "vitest";

export function oid4vciRetentionContract() {
  describe("expired OpenID4VCI offers and nonces", () => {
    it("are deleted; live ones, and a redeemed offer whose access token still lives, are kept", async () => {
      const { db } = await import("../../lib/db");
      const { retireExpiredOid4vciRows } = await import("../../lib/oid4vci/retention");
      const now = new Date();
      const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
      const offer = (id: string, expiresAt: Date, accessTokenExpiresAt: Date | null = null) =>
        db().oid4vciOffer.create({
          data: {
            id,
            organizationId: "org_x",
            credentialId: "cred_x",
            preAuthorizedCodeHash: `code-${id}`,
            expiresAt,
            ...(accessTokenExpiresAt ? { redeemedAt: at(-700), accessTokenHash: `token-${id}`, accessTokenExpiresAt } : {}),
          },
        });
      await offer("expired", at(-1));
      await offer("live", at(60));
      await offer("redeemed-token-gone", at(-60), at(-1));
      await offer("redeemed-token-live", at(-60), at(120));
      const nonce = (nonceHash: string, expiresAt: Date) =>
        db().oid4vciNonce.create({ data: { nonceHash, organizationId: "org_x", expiresAt } });
      await nonce("nonce-expired", at(-1));
      await nonce("nonce-live", at(60));

      expect(await retireExpiredOid4vciRows(now)).toBe(3);
      expect((await db().oid4vciOffer.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((r) => r.id)).toEqual([
        "live",
        "redeemed-token-live",
      ]);
      expect((await db().oid4vciNonce.findMany({ select: { nonceHash: true } })).map((r) => r.nonceHash)).toEqual(["nonce-live"]);
      // Nothing left to sweep: the cleanup loop stops asking.
      expect(await retireExpiredOid4vciRows(now)).toBe(0);
      // Later, everything has expired, the redeemed offer's access token too.
      expect(await retireExpiredOid4vciRows(at(121))).toBe(3);
      expect(await db().oid4vciOffer.count()).toBe(0);
      expect(await db().oid4vciNonce.count()).toBe(0);
    });
  });
}
