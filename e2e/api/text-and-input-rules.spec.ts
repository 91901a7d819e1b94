// Issue 14 (hardening), the API's input rules, on both engines: text must be valid Unicode (no NUL, no
// unpaired surrogate) everywhere; single-line fields (names, ids, titles) refuse control characters and
// bidi overrides/isolates; multi-line fields keep tab and line breaks; a body must be UTF-8; query
// parameters are refused alike whatever their name; an expiry the group's period pushes past 9999 names
// the field the client sent; learningEventUrl is stored normalized; repeated sends coalesce. Every
// refusal writes nothing.
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";
import { allCredentials, createCredential, getCredential, issue, newGroup, uniqueEmail, type Credential } from "../support/credentials";
import { emlFilesContaining, sleep, waitFor } from "../support/mail";

/** A JSON body with escapes written out, so "\ud800" reaches the server as the six characters it is. */
function rawJson(api: APIRequestContext, method: "post" | "patch", url: string, json: string) {
  return api[method](url, { data: json, headers: { "Content-Type": "application/json" } });
}

test.describe("text rules", () => {
  test("lone surrogates and NUL in any body string: validation_error naming the field, nothing written", async ({ api }) => {
    const group = await newGroup(api);
    const cases: [string, string][] = [
      [`{"groupId":"${group.id}","recipient":{"name":"A\\ud800b"}}`, "recipient.name"],
      [`{"groupId":"${group.id}","recipient":{"name":"A\\udc00"}}`, "recipient.name"],
      [`{"groupId":"${group.id}","recipient":{"name":"A\\u0000b"}}`, "recipient.name"],
      [
        `{"groupId":"${group.id}","recipient":{"name":"Ada"},"customAttributes":{"custom.note":"x\\u0000"}}`,
        "customAttributes.custom.note",
      ],
      [`{"groupId":"${group.id}\\u0000","recipient":{"name":"Ada"}}`, "groupId"],
    ];
    for (const [body, field] of cases) {
      await expectError(await rawJson(api, "post", "/v1/credentials", body), 400, "validation_error", { paths: [field] });
      await expectError(await rawJson(api, "post", "/v1/credentials/create-issue-send", body), 400, "validation_error", { paths: [field] });
    }
    // A field name that is not valid text is reported at its object.
    await expectError(
      await rawJson(
        api,
        "post",
        "/v1/credentials",
        `{"groupId":"${group.id}","recipient":{"name":"Ada"},"customAttributes":{"custom.\\ud800":"x"}}`,
      ),
      400,
      "validation_error",
      { paths: ["customAttributes"] },
    );
    expect(await allCredentials(api)).toEqual([]);
  });

  test("search values and group fields get the same rule", async ({ api }) => {
    await expectError(
      await rawJson(api, "post", "/v1/credentials/search", `{"filter":{"recipient":{"name":{"contains":"\\ud800"}}}}`),
      400,
      "validation_error",
      { paths: ["filter.recipient.name.contains"] },
    );
    await expectError(await rawJson(api, "post", "/v1/credentials/search", `{"filter":{"id":"a\\u0000"}}`), 400, "validation_error", {
      paths: ["filter.id"],
    });
    const group = await newGroup(api);
    await expectError(
      await rawJson(api, "patch", `/v1/groups/${group.id}`, `{"emailTemplate":{"subject":"Hi","text":"a\\ud800"}}`),
      400,
      "validation_error",
      { paths: ["emailTemplate.text"] },
    );
    const after = await expectStatus(await api.get(`/v1/groups/${group.id}`), 200);
    expect(after).toEqual(group);
  });

  test("single-line fields refuse control characters and bidi overrides; every script and direction marks are fine", async ({ api }) => {
    const group = await newGroup(api);
    for (const name of ["Ada\u202eecalevoL", "Ada\u2066x\u2069", "Ada\nLovelace", "Ada\tLovelace", "Ada\u0085"]) {
      const res = await api.post("/v1/credentials", { data: { groupId: group.id, recipient: { name } } });
      await expectError(res, 400, "validation_error", { paths: ["recipient.name"], exactPaths: true });
    }
    for (const field of ["name"]) {
      await expectError(await api.patch(`/v1/groups/${group.id}`, { data: { [field]: "Course\u202e" } }), 400, "validation_error", {
        paths: [field],
      });
    }
    expect(await allCredentials(api)).toEqual([]);

    for (const name of ["محمد علي", "דוד כהן", "\u200fשלום", "अनन्या शर्मा", "สมชาย ใจดี", "  Zoë O'Brien \n"]) {
      const c = await createCredential(api, { groupId: group.id, recipient: { name } });
      expect(c.attributes["recipient.name"]).toBe(name.trim());
    }
  });

  test("multi-line fields keep tab and line breaks and refuse other control characters", async ({ api }) => {
    const group = await newGroup(api);
    const note = "Line one\n\tLine two\r\nEnd";
    const c = await createCredential(api, { groupId: group.id, recipient: { name: "Ada" }, customAttributes: { "custom.note": note } });
    expect(c.customAttributes["custom.note"]).toBe(note);
    await expectError(
      await api.patch(`/v1/credentials/${c.id}`, { data: { customAttributes: { "custom.note": "bell\u0007" } } }),
      400,
      "validation_error",
      { paths: ["customAttributes.custom.note"] },
    );
    expect((await getCredential(api, c.id)).customAttributes["custom.note"]).toBe(note);
  });

  test("a JSON body is read whatever its Content-Type says (curl -d sends a form type)", async ({ api }) => {
    const group = await newGroup(api);
    for (const type of ["application/x-www-form-urlencoded", "text/plain", "application/octet-stream"]) {
      const res = await api.post("/v1/credentials", {
        data: JSON.stringify({ groupId: group.id, recipient: { name: `Typed ${type}` } }),
        headers: { "Content-Type": type },
      });
      expect((await expectStatus(res, 201)).attributes["recipient.name"]).toBe(`Typed ${type}`);
    }
  });

  test("a body that is not UTF-8 is invalid_json; nothing written", async ({ api }) => {
    const group = await newGroup(api);
    const body = Buffer.concat([
      Buffer.from(`{"groupId":"${group.id}","recipient":{"name":"A`),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`"}}`),
    ]);
    await expectError(
      await api.post("/v1/credentials", { data: body, headers: { "Content-Type": "application/json" } }),
      400,
      "invalid_json",
      {
        message: /UTF-8/,
      },
    );
    expect(await allCredentials(api)).toEqual([]);
  });
});

test.describe("query and path rules", () => {
  test("__proto__, repeated and non-text query parameters are validation errors like any unknown one", async ({ api }) => {
    for (const [query, param] of <[string, string][]>[
      ["?__proto__=1", "__proto__"],
      ["?constructor=1", "constructor"],
      ["?limit=1&limit=2", "limit"],
      ["?limit=%00", "limit"],
      ["?cursor=%00", "cursor"],
    ]) {
      await expectError(await api.get(`/v1/groups${query}`), 400, "validation_error", { paths: [param] });
    }
    await expectError(await api.get("/v1/credential-interactions?credentialId=%00"), 400, "validation_error", { paths: ["credentialId"] });
  });

  test("a NUL in a path id is not_found, in the envelope with a request id", async ({ api }) => {
    for (const [method, url] of <[string, string][]>[
      ["GET", "/v1/credentials/%00"],
      ["POST", "/v1/credentials/cred_%00/issue"],
      ["GET", "/v1/groups/%00"],
      ["PATCH", "/v1/designs/a%00b"],
    ]) {
      const res = await api.fetch(url, { method, ...(method === "PATCH" ? { data: { name: "Renamed" } } : {}) });
      await expectError(res, 404, "not_found");
      expect(res.headers()["x-request-id"]).toBeTruthy();
    }
  });
});

test.describe("dates and URLs", () => {
  test("an expiry the group's period pushes past 9999-12-31 names the field the client sent; nothing written", async ({ api }) => {
    const group = await newGroup(api, { expiryPeriod: { amount: 1000, unit: "year" } });
    const refused = await expectError(
      await api.post("/v1/credentials", { data: { groupId: group.id, recipient: { name: "Far" }, issueDate: "9500-01-01" } }),
      400,
      "validation_error",
      { paths: ["issueDate"], exactPaths: true },
    );
    expect(refused.error.message).toMatch(/expiryPeriod/);
    expect(refused.error.message).not.toMatch(/expiryDate must not be before/);
    expect(await allCredentials(api)).toEqual([]);

    // An explicit expiry needs no period.
    const fine = await createCredential(api, {
      groupId: group.id,
      recipient: { name: "Far" },
      issueDate: "9500-01-01",
      expiryDate: "9999-12-31",
    });
    expect(fine.expiryDate).toBe("9999-12-31");
    // PATCH expiryDate: null re-applies the period: refused, on the field sent.
    await expectError(await api.patch(`/v1/credentials/${fine.id}`, { data: { expiryDate: null } }), 400, "validation_error", {
      paths: ["expiryDate"],
      exactPaths: true,
    });
    const near = await createCredential(api, { groupId: group.id, recipient: { name: "Near" } });
    await expectError(await api.patch(`/v1/credentials/${near.id}`, { data: { issueDate: "9200-06-01" } }), 400, "validation_error", {
      paths: ["issueDate"],
      exactPaths: true,
    });
    expect((await getCredential(api, near.id)).issueDate).toBe(near.issueDate);
    expect((await getCredential(api, fine.id)).expiryDate).toBe("9999-12-31");
  });

  test("learningEventUrl is stored as a browser reads it; user names and passwords are refused", async ({ api }) => {
    const cases: [string, string][] = [
      ["https://example.com", "https://example.com"],
      ["https://Example.COM/Course", "https://example.com/Course"],
      ["HTTPS://bücher.example/a b?x=1", "https://xn--bcher-kva.example/a%20b?x=1"],
    ];
    for (const [given, stored] of cases) {
      const group = await newGroup(api, { learningEventUrl: given });
      expect(group.learningEventUrl).toBe(stored);
    }
    const group = await newGroup(api);
    await expectError(
      await api.patch(`/v1/groups/${group.id}`, { data: { learningEventUrl: "https://user:secret@example.com/" } }),
      400,
      "validation_error",
      {
        paths: ["learningEventUrl"],
      },
    );
    await expectError(
      await api.patch(`/v1/groups/${group.id}`, { data: { learningEventUrl: "https://example.com/\n" } }),
      400,
      "validation_error",
      {
        paths: ["learningEventUrl"],
      },
    );
    expect((await expectStatus(await api.get(`/v1/groups/${group.id}`), 200)).learningEventUrl).toBeNull();
  });
});

test.describe("repeated sends", () => {
  test("50 parallel sends of one credential queue one email; a send after it went out queues another", async ({ api, server }) => {
    const mailDir = path.join(server.dataDir, "mail");
    const group = await newGroup(api);
    const email = uniqueEmail("parallel-send");
    const c: Credential = await issue(api, (await createCredential(api, { groupId: group.id, recipient: { name: "Parallel", email } })).id);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => api.post(`/v1/credentials/${c.id}/send`, { data: { deliveryMethod: "email" } })),
    );
    for (const res of answers) expect(res.status()).toBe(200);
    await waitFor("the email", () => emlFilesContaining(mailDir, email).length > 0);
    await sleep(3000);
    expect(emlFilesContaining(mailDir, email)).toHaveLength(1);

    await expectStatus(await api.post(`/v1/credentials/${c.id}/send`, { data: { deliveryMethod: "email" } }), 200);
    await waitFor("a second email", () => emlFilesContaining(mailDir, email).length === 2);
  });
});
