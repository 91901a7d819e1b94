// Search paths on SQLite; the cases are in service.contract.ts, shared with PostgreSQL.
import { beforeAll, describe } from "vitest";
import { scratchDatabase } from "../db/scratch-database";
import { searchPathsContract } from "./service.contract";

type Subject = Parameters<typeof searchPathsContract>[0] extends () => infer S ? S : never;

describe("recipient substring searches on SQLite", () => {
  let subject: Subject;

  beforeAll(async () => {
    await scratchDatabase("cis-search-paths");
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
  });

  searchPathsContract(() => subject);
});
