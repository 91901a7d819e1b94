import { describe, expect, it } from "vitest";
import { safeParseWithDetails } from "@/lib/core/validation";
import { SearchCredentialsBody } from "@/lib/search/schema";
import { pageHref, problemsFrom, readTableQuery, searchRequest, shellQuote, sortHref } from "./table-query";

const parse = (body: unknown) => safeParseWithDetails(SearchCredentialsBody, body);

describe("the credentials table's address as a search API request", () => {
  it("spells every filter in the filter language, and the API's schema accepts it", () => {
    const query = readTableQuery({
      status: "issued",
      template: "grp_1",
      name: " ada ",
      email: "example.com",
      hasEmail: "yes",
      issuedFrom: "2026-01-01",
      issuedTo: "2026-01-31",
      sort: "issueDate",
      order: "asc",
      limit: "50",
      unknown: "ignored",
    });
    const { body, problems } = searchRequest(query);
    expect(problems).toEqual([]);
    expect(body).toEqual({
      filter: {
        status: "issued",
        revokedAt: { equals: null },
        groupId: "grp_1",
        "recipient.name": { contains: "ada" },
        "recipient.email": { contains: "example.com", not: null },
        issueDate: { gte: "2026-01-01", lte: "2026-01-31" },
      },
      sort: { property: "issueDate", order: "asc" },
      limit: 50,
    });
    expect(parse(body).ok).toBe(true);
  });

  it("without parameters: no filter, the API's default order, 25 a page", () => {
    const { body } = searchRequest(readTableQuery({ status: "", name: "   " }));
    expect(body).toEqual({ filter: {}, sort: { property: "createdAt", order: "desc" }, limit: 25 });
    expect(parse(body).ok).toBe(true);
  });

  it("takes the first of repeated parameters and passes the cursor on", () => {
    const { body } = searchRequest(readTableQuery({ status: ["draft", "issued"], cursor: "abc", hasEmail: "no" }));
    expect(body.filter).toEqual({ status: "draft", revokedAt: { equals: null }, "recipient.email": { equals: null } });
    expect(body.cursor).toBe("abc");
  });

  it("status revoked is any revoked credential; another status is one that is not revoked (the table shows revoked in its place)", () => {
    const revoked = searchRequest(readTableQuery({ status: "revoked" })).body;
    expect(revoked.filter).toEqual({ revokedAt: { not: null } });
    expect(parse(revoked).ok).toBe(true);
    expect(searchRequest(readTableQuery({ status: "expired" })).body.filter).toEqual({ status: "expired", revokedAt: { equals: null } });
  });

  it("names each mistake by the field it came from, with the API's message", () => {
    const { body, problems } = searchRequest(
      readTableQuery({
        issuedFrom: "2026-02-30",
        issuedTo: "tomorrow",
        status: "lost",
        sort: "name",
        order: "up",
        limit: "1000",
        hasEmail: "maybe",
      }),
    );
    const parsed = parse(body);
    expect(parsed.ok).toBe(false);
    const all = [...problems, ...(parsed.ok ? [] : problemsFrom(parsed.details))];
    expect(all.map((p) => p.param).sort()).toEqual(["hasEmail", "issuedFrom", "issuedTo", "limit", "order", "sort", "status"]);
    expect(all.find((p) => p.param === "issuedFrom")?.message).toBe("must be a real calendar date in YYYY-MM-DD form");
    expect(searchRequest(readTableQuery({ limit: "ten" })).body.limit).toBe("ten");
  });
});

describe("links", () => {
  const query = readTableQuery({ status: "issued", sort: "issueDate", order: "desc", cursor: "c1" });
  it("a sorted column flips its order, another column starts latest first, and both drop the cursor", () => {
    const current = { property: "issueDate", order: "desc" };
    expect(sortHref(query, current, "issueDate")).toBe("?status=issued&sort=issueDate&order=asc");
    expect(sortHref(query, { property: "issueDate", order: "asc" }, "issueDate")).toBe("?status=issued&sort=issueDate&order=desc");
    expect(sortHref(query, current, "expiryDate")).toBe("?status=issued&sort=expiryDate&order=desc");
  });
  it("a page link keeps the search and swaps the cursor", () => {
    expect(pageHref(query, "c/2+")).toBe("?status=issued&sort=issueDate&order=desc&cursor=c%2F2%2B");
  });
  it("the curl example quotes single quotes for the shell", () => {
    expect(shellQuote(`{"recipient.name":{"contains":"O'Brien"}}`)).toBe(`'{"recipient.name":{"contains":"O'\\''Brien"}}'`);
  });
});
