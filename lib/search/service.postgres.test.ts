// Search paths on PostgreSQL: runs when TEST_POSTGRES_URL names a server (CI starts one), on a scratch
// database of its own. The cases are in service.contract.ts, shared with SQLite.
import { afterAll, beforeAll, describe } from "vitest";
import { searchPathsContract } from "./service.contract";

type Subject = Parameters<typeof searchPathsContract>[0] extends () => infer S ? S : never;
const serverUrl = process.env.TEST_POSTGRES_URL?.trim();

describe.skipIf(!serverUrl)("recipient substring searches on PostgreSQL", () => {
  let subject: Subject;
  let drop: () => Promise<void> = async () => undefined;
  let close: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    const { scratchPostgresDatabase } = await import("../db/scratch-database");
    drop = (await scratchPostgresDatabase(serverUrl!, "cis_unit_search_paths")).drop;
    const { db, postgresPool } = await import("../db");
    const { createOrganization } = await import("../organizations/service");
    const { createDesign } = await import("../designs/service");
    const { createGroup } = await import("../groups/service");
    const { createCredential } = await import("../credentials/service");
    const { searchCredentials } = await import("./service");
    const templateOf = async (organization: Awaited<ReturnType<typeof createOrganization>>) => {
      const design = await createDesign(organization, { name: "D", type: "certificate" });
      return (await createGroup(organization.id, { name: "Course", designIds: [design.id] })).id;
    };
    const organization = await createOrganization({ slug: "search-paths" });
    const other = await createOrganization({ slug: "search-paths-other" });
    const [groupId, otherGroupId] = [await templateOf(organization), await templateOf(other)];
    subject = {
      organization,
      search: searchCredentials,
      create: (input, elsewhere) => (elsewhere ? createCredential(other, { groupId: otherGroupId, ...input }) : createCredential(organization, { groupId, ...input })),
    };
    close = async () => {
      await db().$disconnect();
      await postgresPool().end();
    };
  });

  afterAll(async () => {
    await close();
    await drop();
  });

  searchPathsContract(() => subject);
});
