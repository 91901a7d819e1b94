// Resource ids: a type prefix (so an id says what it names, as in Stripe's API), then 10 characters
// of millisecond time and 16 random ones in Crockford base32. Time first keeps B-tree inserts local
// and makes ids of one type sort roughly by creation; the random part makes them unguessable.
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

export type IdPrefix =
  | "org"
  | "usr"
  | "mem"
  | "tok"
  | "dsn"
  | "rev"
  | "ast"
  | "grp"
  | "rcp"
  | "cred"
  | "evt"
  | "pv"
  | "mail"
  | "att"
  | "imp"
  | "imr"
  | "ses"
  | "pwr"
  | "idem"
  | "ikey"
  | "stl"
  | "whk"
  | "whd"
  | "wha"
  | "sil"
  | "vci"
  | "wses"
  | "wsil"
  | "ncr";

function encodeTime(ms: number): string {
  let out = "";
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

/**
 * Cryptographic random bytes handed out from a pool refilled 4 KiB at a time: one call into OpenSSL's
 * generator per 256 ids instead of one per id (each call cost 2-6 µs of binding overhead, and a
 * credential issued with a webhook endpoint makes a dozen ids: bench:webhooks' profile showed it). Node
 * pools randomUUID's bytes the same way. Each byte is handed out once. For ids, not for secrets: the
 * piece returned is a view of the pool, whose `.buffer` holds the bytes of the ids to come.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

export function pooledRandomBytes(length: number): Uint8Array {
  if (length > POOL_BYTES) return randomBytes(length);
  if (poolOffset + length > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + length);
  poolOffset += length;
  return bytes;
}

function encodeRandom(bytes: ArrayLike<number>): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += ALPHABET[bytes[i]! % 32];
  return out;
}

/**
 * A new id. `ms` and `random` default to now and crypto randomness; data generators (scripts/bench)
 * pass a past creation time and a seeded generator to make ids exactly as the app would have.
 */
export function newId(
  prefix: IdPrefix,
  ms: number = Date.now(),
  random: (length: number) => ArrayLike<number> = pooledRandomBytes,
): string {
  return `${prefix}_${encodeTime(ms)}${encodeRandom(random(16))}`;
}
