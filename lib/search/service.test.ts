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
    const organization = await createOrganization({ slug: "search-paths" });
    const design = await createDesign(organization, { name: "D", type: "certificate" });
    const groupId = (await createGroup(organization.id, { name: "Course", designIds: [design.id] })).id;
    subject = { organization, search: searchCredentials, create: (recipient) => createCredential(organization, { groupId, recipient }) };
  });

  searchPathsContract(() => subject);
});
