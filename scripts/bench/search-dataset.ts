// A large, realistic credential table for the search benchmark (npm run bench:search), written straight
// into a database whose schema the app's migrations created: batched multi-row INSERTs inside
// transactions through the plain drivers (better-sqlite3, pg), far faster than the API.
//
// One big organization holds `rows` credentials; two small ones hold a few thousand, with recipients
// whose emails also exist in the big one, so a query that forgot the organization would show. The data
// comes from a seeded generator: every run, and both databases, get the same rows (only the API token
// differs).
//
// Mix (docs/api.md, Credentials, for what the columns mean): ~50 groups, recipients = 30% of rows (names from
// first/last-name pools, some non-ASCII; emails derived from the names), 10% of credentials without
// recipient, 5% draft, 1% scheduled (issue date in the future), the rest issued, of which 15% expired
// and 50% without expiry date; creation times spread over five years, in insertion order.
import Database from "better-sqlite3";
import pg from "pg";
import { generateApiToken } from "@/lib/organizations/api-tokens";
import { addPeriod, todayUtc } from "@/lib/core/dates";
import { sqlitePath } from "@/lib/db/migrate";
import { newId } from "@/lib/db/ids";
import { normalizeEmail, normalizeName } from "@/lib/recipients/service";

export type SearchDataset = {
  organizationId: string;
  /** A bearer token of the big organization. */
  token: string;
  /** The big organization's groups, most used first. */
  groupIds: string[];
  /** Recipients of the big organization that have credentials: their email (as stored, mixed case included) and how many. */
  emails: { email: string; credentials: number }[];
  /** Substrings (3..5 letters) that occur in recipient names, common and rare, some non-ASCII. */
  nameSubstrings: string[];
  today: string;
  counts: { credentials: number; recipients: number; groups: number; organizations: number; totalRows: number };
};

export type SeedResult = { dataset: SearchDataset; seconds: number; rowsPerSecond: number };

// ---------------------------------------------------------------------------------------------------
// Deterministic randomness

/** sfc32: small, fast and good enough for test data; seeded, so every run makes the same rows. */
function rng(seed: number): () => number {
  let a = 0x9e3779b9,
    b = 0x243f6a88,
    c = 0xb7e15162,
    d = seed >>> 0;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 16; i++) next();
  return next;
}

class Random {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = rng(seed);
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  bytes = (length: number): number[] => Array.from({ length }, () => this.int(256));
  uuid(): string {
    const h = this.bytes(16).map((b) => b.toString(16).padStart(2, "0"));
    h[6] = "4" + h[6]!.slice(1);
    h[8] = ((parseInt(h[8]!, 16) & 0x3f) | 0x80).toString(16);
    const s = h.join("");
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}

// ---------------------------------------------------------------------------------------------------
// Names: [as written, ASCII for the email]. Roughly one in five is non-ASCII (accents, CJK, Cyrillic, Greek).

const FIRST: [string, string][] = [
  ["Anna", "anna"],
  ["Ben", "ben"],
  ["Carla", "carla"],
  ["David", "david"],
  ["Emma", "emma"],
  ["Felix", "felix"],
  ["Grace", "grace"],
  ["Hugo", "hugo"],
  ["Isabel", "isabel"],
  ["Jakob", "jakob"],
  ["Karin", "karin"],
  ["Liam", "liam"],
  ["Maria", "maria"],
  ["Noah", "noah"],
  ["Olivia", "olivia"],
  ["Paul", "paul"],
  ["Quentin", "quentin"],
  ["Rosa", "rosa"],
  ["Samuel", "samuel"],
  ["Tara", "tara"],
  ["Ulrich", "ulrich"],
  ["Vera", "vera"],
  ["William", "william"],
  ["Xenia", "xenia"],
  ["Yusuf", "yusuf"],
  ["Zara", "zara"],
  ["Mohammed", "mohammed"],
  ["Fatima", "fatima"],
  ["Priya", "priya"],
  ["Arjun", "arjun"],
  ["Mei", "mei"],
  ["Hiroshi", "hiroshi"],
  ["Yuki", "yuki"],
  ["Ivan", "ivan"],
  ["Sofia", "sofia"],
  ["Lucas", "lucas"],
  ["Mateo", "mateo"],
  ["Margaret", "margaret"],
  ["Thomas", "thomas"],
  ["Laura", "laura"],
  ["Daniel", "daniel"],
  ["Sarah", "sarah"],
  ["Michael", "michael"],
  ["Julia", "julia"],
  ["Peter", "peter"],
  ["Elena", "elena"],
  ["Omar", "omar"],
  ["Aisha", "aisha"],
  ["José", "jose"],
  ["Zoë", "zoe"],
  ["Søren", "soren"],
  ["Łukasz", "lukasz"],
  ["Chloé", "chloe"],
  ["Björn", "bjorn"],
  ["Renée", "renee"],
  ["François", "francois"],
  ["Ágnes", "agnes"],
  ["Jürgen", "jurgen"],
  ["Ömer", "omer"],
  ["Íñigo", "inigo"],
  ["翔太", "shota"],
  ["美咲", "misaki"],
  ["伟", "wei"],
  ["민준", "minjun"],
  ["Дмитрий", "dmitry"],
  ["Ольга", "olga"],
  ["Νίκος", "nikos"],
];

const LAST: [string, string][] = [
  ["Smith", "smith"],
  ["Johnson", "johnson"],
  ["Williams", "williams"],
  ["Brown", "brown"],
  ["Jones", "jones"],
  ["Miller", "miller"],
  ["Davis", "davis"],
  ["Martinez", "martinez"],
  ["Schmidt", "schmidt"],
  ["Schneider", "schneider"],
  ["Fischer", "fischer"],
  ["Weber", "weber"],
  ["Meyer", "meyer"],
  ["Wagner", "wagner"],
  ["Becker", "becker"],
  ["Hoffmann", "hoffmann"],
  ["Koch", "koch"],
  ["Richter", "richter"],
  ["Klein", "klein"],
  ["Wolf", "wolf"],
  ["Neumann", "neumann"],
  ["Dubois", "dubois"],
  ["Moreau", "moreau"],
  ["Girard", "girard"],
  ["Rossi", "rossi"],
  ["Russo", "russo"],
  ["Ferrari", "ferrari"],
  ["Esposito", "esposito"],
  ["Bianchi", "bianchi"],
  ["Romano", "romano"],
  ["Nowak", "nowak"],
  ["Kowalski", "kowalski"],
  ["Svensson", "svensson"],
  ["Johansson", "johansson"],
  ["Kim", "kim"],
  ["Lee", "lee"],
  ["Park", "park"],
  ["Wang", "wang"],
  ["Zhang", "zhang"],
  ["Chen", "chen"],
  ["Yang", "yang"],
  ["Tanaka", "tanaka"],
  ["Suzuki", "suzuki"],
  ["Ivanov", "ivanov"],
  ["Petrov", "petrov"],
  ["Silva", "silva"],
  ["Santos", "santos"],
  ["Oliveira", "oliveira"],
  ["Costa", "costa"],
  ["Patel", "patel"],
  ["Shah", "shah"],
  ["Singh", "singh"],
  ["Kumar", "kumar"],
  ["Khan", "khan"],
  ["Ahmed", "ahmed"],
  ["Hassan", "hassan"],
  ["O'Brien", "obrien"],
  ["van der Berg", "vanderberg"],
  ["Kaya", "kaya"],
  ["Demir", "demir"],
  ["Murphy", "murphy"],
  ["Walsh", "walsh"],
  ["García", "garcia"],
  ["Müller", "muller"],
  ["Schäfer", "schafer"],
  ["Schröder", "schroder"],
  ["Lefèvre", "lefevre"],
  ["Wiśniewski", "wisniewski"],
  ["Dvořák", "dvorak"],
  ["Jørgensen", "jorgensen"],
  ["Nguyễn", "nguyen"],
  ["Trần", "tran"],
  ["Yılmaz", "yilmaz"],
  ["Şahin", "sahin"],
  ["Çelik", "celik"],
  ["田中", "tanaka"],
  ["佐藤", "sato"],
  ["王", "wang"],
  ["김", "kim"],
  ["Иванов", "ivanov"],
  ["Παπαδόπουλος", "papadopoulos"],
];

const DOMAINS = ["example.com", "example.org", "mail.example.net", "uni.example.edu", "corp.example", "students.example.ac.uk"];

/** For `recipient.name contains`: common (many rows) to rare (one pair of pools), some non-ASCII and in upper case. */
const NAME_SUBSTRINGS = [
  "mar",
  "son",
  "ller",
  "ANG",
  "chen",
  "ssen",
  "müll",
  "øren",
  "josé",
  "dvoř",
  "ivan",
  "olga",
  "田中",
  "nguy",
  "ahme",
];

// ---------------------------------------------------------------------------------------------------
// Tables

type Kind = "text" | "int" | "bool" | "ts";
type Table = { name: string; columns: [string, Kind][] };
type Row = (string | number | boolean | null)[];

const T = {
  organization: {
    name: "Organization",
    columns: [
      ["id", "text"],
      ["slug", "text"],
      ["name", "text"],
      ["plan", "text"],
      ["createdAt", "ts"],
      ["updatedAt", "ts"],
    ],
  },
  apiToken: {
    name: "ApiToken",
    columns: [
      ["id", "text"],
      ["organizationId", "text"],
      ["name", "text"],
      ["prefix", "text"],
      ["tokenHash", "text"],
      ["createdAt", "ts"],
    ],
  },
  design: {
    name: "Design",
    columns: [
      ["id", "text"],
      ["organizationId", "text"],
      ["type", "text"],
      ["name", "text"],
      ["createdAt", "ts"],
      ["updatedAt", "ts"],
    ],
  },
  group: {
    name: "Group",
    columns: [
      ["id", "text"],
      ["organizationId", "text"],
      ["name", "text"],
      ["expiryAmount", "int"],
      ["expiryUnit", "text"],
      ["createdAt", "ts"],
      ["updatedAt", "ts"],
    ],
  },
  groupDesign: {
    name: "GroupDesign",
    columns: [
      ["groupId", "text"],
      ["position", "int"],
      ["designId", "text"],
    ],
  },
  recipient: {
    name: "Recipient",
    columns: [
      ["id", "text"],
      ["organizationId", "text"],
      ["name", "text"],
      ["email", "text"],
      ["emailNormalized", "text"],
      ["nameNormalized", "text"],
      ["createdAt", "ts"],
      ["updatedAt", "ts"],
    ],
  },
  credential: {
    name: "Credential",
    columns: [
      ["id", "text"],
      ["publicId", "text"],
      ["organizationId", "text"],
      ["groupId", "text"],
      ["recipientId", "text"],
      ["recipientName", "text"],
      ["status", "text"],
      ["issueDate", "text"],
      ["expiryDate", "text"],
      ["expiryDateExplicit", "bool"],
      ["customAttributes", "text"],
      ["issuedAt", "ts"],
      ["sendPending", "bool"],
      ["createdAt", "ts"],
      ["updatedAt", "ts"],
    ],
  },
} satisfies Record<string, Table>;

// ---------------------------------------------------------------------------------------------------
// Writers: the same rows through either driver

interface Writer {
  insert(table: Table, rows: Row[]): Promise<void>;
  begin(): Promise<void>;
  commit(): Promise<void>;
  /** Statistics for the planner (and, on PostgreSQL, the visibility map autovacuum would otherwise write mid-benchmark). */
  finish(): Promise<void>;
  close(): Promise<void>;
  /** Rows per multi-row INSERT for a table of this many columns. */
  batchRows(columns: number): number;
}

function sqliteWriter(databaseUrl: string): Writer {
  const conn = new Database(sqlitePath(databaseUrl));
  // A scratch file nobody else writes while it is seeded: no fsync, a big page cache. (The app opens it
  // with its own settings afterwards; journal_mode WAL, set by the migration, persists.)
  conn.pragma("synchronous = OFF");
  conn.pragma("cache_size = -1000000");
  conn.pragma("temp_store = MEMORY");
  const statements = new Map<string, Database.Statement>();
  const ts = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");
  return {
    batchRows: (columns) => Math.min(500, Math.floor(32766 / columns)),
    async insert(table, rows) {
      const key = `${table.name}:${rows.length}`;
      let statement = statements.get(key);
      if (!statement) {
        statement = conn.prepare(insertSql(table, rows.length, () => "?"));
        statements.set(key, statement);
      }
      const params: unknown[] = [];
      for (const row of rows) {
        for (let c = 0; c < row.length; c++) {
          const v = row[c]!;
          const kind = table.columns[c]![1];
          params.push(v === null ? null : kind === "ts" ? ts(v as number) : kind === "bool" ? (v ? 1 : 0) : v);
        }
      }
      statement.run(params);
    },
    async begin() {
      conn.exec("BEGIN");
    },
    async commit() {
      conn.exec("COMMIT");
    },
    async finish() {
      conn.exec("ANALYZE");
      conn.pragma("wal_checkpoint(TRUNCATE)");
    },
    async close() {
      conn.close();
    },
  };
}

function postgresWriter(databaseUrl: string): Writer {
  const client = new pg.Client({ connectionString: databaseUrl });
  const connected = client.connect();
  // timestamp(3) without time zone holds UTC wall time (as Prisma writes it); ISO text with `Z` parses to that.
  const ts = (ms: number) => new Date(ms).toISOString();
  // Up to two INSERTs in flight: the next batch is generated while PostgreSQL stores the previous one.
  let inFlight: Promise<unknown>[] = [];
  const drain = async () => {
    const pending = inFlight;
    inFlight = [];
    await Promise.all(pending);
  };
  return {
    batchRows: (columns) => Math.min(1000, Math.floor(65535 / columns)),
    async insert(table, rows) {
      await connected;
      const params: unknown[] = [];
      for (const row of rows) {
        for (let c = 0; c < row.length; c++) {
          const v = row[c]!;
          params.push(v === null ? null : table.columns[c]![1] === "ts" ? ts(v as number) : v);
        }
      }
      let n = 0;
      const query = client.query(
        insertSql(table, rows.length, () => `$${++n}`),
        params,
      );
      query.catch(() => undefined); // awaited in drain(); keeps an early failure from going unhandled
      inFlight.push(query);
      if (inFlight.length >= 2) await inFlight.shift();
    },
    async begin() {
      await connected;
      await client.query("BEGIN");
    },
    async commit() {
      await drain();
      await client.query("COMMIT");
    },
    async finish() {
      await client.query("VACUUM (ANALYZE)");
    },
    async close() {
      await drain().catch(() => undefined);
      await client.end();
    },
  };
}

function insertSql(table: Table, rowCount: number, param: () => string): string {
  const columns = table.columns.map(([c]) => `"${c}"`).join(", ");
  const values = Array.from({ length: rowCount }, () => `(${table.columns.map(param).join(", ")})`).join(", ");
  return `INSERT INTO "${table.name}" (${columns}) VALUES ${values}`;
}

/** Buffers rows into multi-row INSERTs and commits every `rowsPerTransaction` rows. One at a time per writer (they share its connection). */
class Inserter {
  private buffer: Row[] = [];
  private inTransaction = 0;
  written = 0;
  constructor(
    private readonly writer: Writer,
    private readonly table: Table,
    private readonly rowsPerTransaction = 100_000,
  ) {}
  async add(row: Row) {
    this.buffer.push(row);
    if (this.buffer.length >= this.writer.batchRows(this.table.columns.length)) await this.flush();
  }
  async flush() {
    if (!this.buffer.length) return;
    if (this.inTransaction === 0) await this.writer.begin();
    const rows = this.buffer;
    this.buffer = [];
    await this.writer.insert(this.table, rows);
    this.written += rows.length;
    this.inTransaction += rows.length;
    if (this.inTransaction >= this.rowsPerTransaction) await this.end();
  }
  async end() {
    if (this.buffer.length) await this.flush();
    if (this.inTransaction === 0) return;
    await this.writer.commit();
    this.inTransaction = 0;
  }
}

// ---------------------------------------------------------------------------------------------------
// The data

const DAY_MS = 86_400_000;
const SPAN_MS = Math.round(5 * 365.25 * DAY_MS);

type Recipient = { id: string; name: string; email: string };
type Org = {
  id: string;
  slug: string;
  createdAt: number;
  credentials: number;
  groupCount: number;
  recipientCount: number;
  groups: { id: string; weight: number }[];
  recipients: Recipient[];
  /** Credentials per recipient (index as in `recipients`). */
  used: number[];
};

function dateOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Seeds the dataset into a database whose schema is already migrated (lib/db/migrate.ts) and empty.
 * `log` gets a progress line now and then.
 */
export async function seedSearchDataset(
  databaseUrl: string,
  rows: number,
  log: (line: string) => void = () => undefined,
): Promise<SeedResult> {
  const started = performance.now();
  const writer = databaseUrl.startsWith("file:") ? sqliteWriter(databaseUrl) : postgresWriter(databaseUrl);
  const random = new Random(20261122);
  const now = Date.now();
  const today = todayUtc(new Date(now));
  const start = now - SPAN_MS;
  let totalRows = 0;
  try {
    // Organizations, one token, one design each, groups using it.
    const smallCredentials = Math.max(50, Math.round(rows * 0.005));
    const specs = [
      { slug: "search-bench", credentials: rows, groupCount: 50, recipientCount: Math.max(1, Math.round(rows * 0.3)) },
      { slug: "search-bench-other-1", credentials: smallCredentials, groupCount: 5, recipientCount: Math.round(smallCredentials * 0.4) },
      { slug: "search-bench-other-2", credentials: smallCredentials, groupCount: 5, recipientCount: Math.round(smallCredentials * 0.4) },
    ];
    const orgs: Org[] = specs.map((spec, k) => {
      const createdAt = start - (30 - k) * DAY_MS;
      return { ...spec, id: newId("org", createdAt, random.bytes), createdAt, groups: [], recipients: [], used: [] };
    });

    // The small tables: rows gathered first, then written in one transaction (parents before children).
    const small = new Map<Table, Row[]>([T.organization, T.apiToken, T.design, T.group, T.groupDesign].map((t) => [t, []]));
    const add = (table: Table, row: Row) => small.get(table)!.push(row);
    const { token, prefix, tokenHash } = generateApiToken();
    for (const org of orgs) {
      add(T.organization, [org.id, org.slug, `Search bench ${org.slug}`, "premium", org.createdAt, org.createdAt]);
      if (org === orgs[0]) add(T.apiToken, [newId("tok", org.createdAt, random.bytes), org.id, "bench", prefix, tokenHash, org.createdAt]);
      const designId = newId("dsn", org.createdAt + 1000, random.bytes);
      add(T.design, [designId, org.id, "certificate", "Certificate", org.createdAt + 1000, org.createdAt + 1000]);
      for (let g = 0; g < org.groupCount; g++) {
        const createdAt = org.createdAt + (g + 2) * 1000;
        const id = newId("grp", createdAt, random.bytes);
        const [expiryAmount, expiryUnit] = g % 3 === 0 ? [2, "year"] : [null, null];
        add(T.group, [id, org.id, `Course ${g + 1}`, expiryAmount, expiryUnit, createdAt, createdAt]);
        add(T.groupDesign, [id, 0, designId]);
        // Some groups are far busier than others (1/k^0.8).
        org.groups.push({ id, weight: 1 / Math.pow(g + 1, 0.8) });
      }
    }
    await writer.begin();
    for (const [table, tableRows] of small) {
      const batch = writer.batchRows(table.columns.length);
      for (let k = 0; k < tableRows.length; k += batch) await writer.insert(table, tableRows.slice(k, k + batch));
    }
    await writer.commit();

    // Recipients. The big organization's come from the name pools; the small ones reuse its emails.
    const recipientInserter = new Inserter(writer, T.recipient);
    const big = orgs[0]!;
    const counters = new Map<string, number>();
    for (const org of orgs) {
      for (let r = 0; r < org.recipientCount; r++) {
        const createdAt = start + Math.floor(((r + random.next()) * SPAN_MS) / org.recipientCount);
        let name: string, email: string;
        if (org === big) {
          const [first, firstAscii] = random.pick(FIRST);
          const [last, lastAscii] = random.pick(LAST);
          name = `${first} ${last}`;
          const key = `${firstAscii}.${lastAscii}`;
          const n = counters.get(key) ?? 0;
          counters.set(key, n + 1);
          const local = n === 0 ? key : `${key}${n}`;
          const domain = random.pick(DOMAINS);
          // One in ten written with capitals, as people type them; found again case-insensitively.
          email = random.next() < 0.1 ? `${capitalize(local)}@${capitalize(domain)}` : `${local}@${domain}`;
        } else {
          const other = big.recipients[random.int(big.recipients.length)]!;
          name = other.name;
          email = other.email;
          if (org.recipients.some((x) => x.email === email)) continue; // an organization has one recipient per email
        }
        const id = newId("rcp", createdAt, random.bytes);
        org.recipients.push({ id, name, email });
        org.used.push(0);
        await recipientInserter.add([id, org.id, name, email, normalizeEmail(email), normalizeName(name), createdAt, createdAt]);
      }
    }
    await recipientInserter.end();
    log(`  recipients: ${recipientInserter.written} in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    // Credentials, oldest first, the organizations interleaved at random.
    const credentialInserter = new Inserter(writer, T.credential);
    const total = orgs.reduce((n, o) => n + o.credentials, 0);
    const remaining = orgs.map((o) => o.credentials);
    const cumulativeWeights = orgs.map((o) => {
      let sum = 0;
      return o.groups.map((g) => (sum += g.weight));
    });
    const nextLog = { at: performance.now() + 15_000 };
    for (let i = 0; i < total; i++) {
      let pickOrg = random.int(total - i);
      let k = 0;
      while (pickOrg >= remaining[k]!) pickOrg -= remaining[k++]!;
      remaining[k]!--;
      const org = orgs[k]!;
      const weights = cumulativeWeights[k]!;
      const w = random.next() * weights[weights.length - 1]!;
      const group = org.groups[weights.findIndex((c) => c >= w)]!;

      const createdAt = Math.min(now - 1000, start + Math.floor(((i + random.next()) * SPAN_MS) / total));
      const updatedAt = random.next() < 0.5 ? createdAt : Math.min(now - 1000, createdAt + random.int(30 * DAY_MS));
      const created = dateOf(createdAt);

      let status: "draft" | "scheduled" | "issued";
      let issueDate: string;
      let expiryDate: string | null = null;
      const s = random.next();
      if (s < 0.05) {
        status = "draft";
        issueDate = created;
        if (random.next() < 0.5) expiryDate = addPeriod(issueDate, 1 + random.int(3), "year");
      } else if (s < 0.06) {
        status = "scheduled";
        issueDate = addPeriod(today, 1 + random.int(365), "day");
        if (random.next() < 0.5) expiryDate = addPeriod(issueDate, 1 + random.int(3), "year");
      } else {
        status = "issued";
        issueDate = created < today ? addPeriod(created, random.int(7), "day") : today;
        if (issueDate > today) issueDate = today;
        const e = random.next();
        const days = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / DAY_MS);
        if (e < 0.15 && issueDate < today) {
          expiryDate = addPeriod(issueDate, random.int(days(issueDate, today)), "day"); // issueDate .. yesterday
        } else if (e >= 0.65) {
          expiryDate = addPeriod(today, 1 + random.int(3 * 365), "day");
        }
      }

      let recipientId: string | null = null;
      let recipientName: string;
      if (random.next() < 0.1) {
        recipientName = `${random.pick(FIRST)[0]} ${random.pick(LAST)[0]}`;
      } else {
        const r = random.int(org.recipients.length);
        org.used[r]!++;
        const recipient = org.recipients[r]!;
        recipientId = recipient.id;
        recipientName = recipient.name;
      }
      await credentialInserter.add([
        newId("cred", createdAt, random.bytes),
        random.uuid(),
        org.id,
        group.id,
        recipientId,
        recipientName,
        status,
        issueDate,
        expiryDate,
        expiryDate !== null && random.next() < 0.3,
        "{}",
        status === "draft" ? null : updatedAt,
        false,
        createdAt,
        updatedAt,
      ]);
      if (performance.now() > nextLog.at) {
        nextLog.at += 15_000;
        log(`  credentials: ${credentialInserter.written} of ${total} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      }
    }
    await credentialInserter.end();
    log(`  credentials: ${credentialInserter.written} in ${((performance.now() - started) / 1000).toFixed(1)} s; analyzing`);
    await writer.finish();

    totalRows =
      [...small.values()].reduce((n, tableRows) => n + tableRows.length, 0) + recipientInserter.written + credentialInserter.written;
    // Emails worth searching for: recipients of the big organization with credentials, spread over the table.
    const step = Math.max(1, Math.floor(big.recipients.length / 500));
    const emails = big.recipients.flatMap((r, k) =>
      k % step === 0 && big.used[k]! > 0 ? [{ email: r.email, credentials: big.used[k]! }] : [],
    );
    const seconds = (performance.now() - started) / 1000;
    return {
      seconds,
      rowsPerSecond: totalRows / seconds,
      dataset: {
        organizationId: big.id,
        token,
        groupIds: big.groups.map((g) => g.id),
        emails,
        nameSubstrings: NAME_SUBSTRINGS,
        today,
        counts: {
          credentials: rows,
          recipients: big.recipients.length,
          groups: big.groups.length,
          organizations: orgs.length,
          totalRows,
        },
      },
    };
  } finally {
    await writer.close();
  }
}

function capitalize(text: string): string {
  return text.replace(/(^|[.@])([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase());
}
