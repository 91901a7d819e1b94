// The server runs the renderer twice: inside Next (pages and routes that check whether a text can be
// drawn, such as credential.json and the wallet) and in server.ts (which answers /previews). State one
// copy loads (HarfBuzz) must serve the other: on a fresh process whose first render happens on the Next
// side, the previews still answer 200 (they answered 500 until the shaper was a process singleton).
import { test, expect } from "../fixtures";
import { expectStatus } from "../support/api-helpers";
import { createCredential, issue, newGroup, uniqueEmail } from "../support/credentials";

test("a fresh server whose first render is on the Next side answers its previews", async ({ startServer, client, org }) => {
  const server = await startServer();
  const api = await client({ baseURL: server.baseURL, token: org.token });
  const group = await newGroup(api, { name: "First Render" });
  const credential = await issue(
    api,
    (await createCredential(api, { groupId: group.id, recipient: { name: "محمد علي", email: uniqueEmail("first") } })).id,
  );
  const anonymous = await client({ baseURL: server.baseURL });
  // Next side first: the signed document names the first drawable design's PNG, the wallet page checks every design.
  const document = (await expectStatus(await anonymous.get(`/credentials/${credential.publicId}/credential.json`), 200)) as {
    image?: { id: string };
  };
  expect((await anonymous.get(`/credentials/${credential.publicId}`)).status()).toBe(200);
  const designs = (await expectStatus(await api.get(`/v1/credentials/${credential.id}/designs`), 200)) as {
    previews: { format: string; url: string }[];
  }[];
  const urls = [document.image!.id, ...designs.flatMap((d) => d.previews.map((p) => p.url))];
  for (const url of urls) {
    const res = await anonymous.get(new URL(url).pathname);
    expect(res.status(), url).toBe(200);
  }
});
