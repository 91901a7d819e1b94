-- Substring search for needles of 1 and 2 characters (`contains`, `startsWith`, `endsWith` on
-- recipient.name and recipient.email), which the trigram index of recipient_text_search cannot look up.
-- Every recipient's normalized name and email are indexed as the set of their characters and of their
-- pairs of adjacent characters, each written as a token of the FTS5 table "RecipientGram":
--   o<org>n1<hex>  a character of the name of a recipient of organization <org>
--   o<org>n2<hex>  two adjacent characters of the name (m1, m2: the email)
-- <org> being the organization's id and <hex> the UTF-8 bytes, both in hex (SQLite's hex()), so a token
-- holds nothing the tokenizer would split; o, n and m are not hex digits and UTF-8 decodes one way only,
-- so two tokens never stand for the same text. A needle of one or two characters is then one token of one organization: a lookup or
-- a count reads only that organization's recipients (a character common in a large organization costs
-- a small one nothing). The exact LIKE on "Recipient" still decides (lib/search/text-index.ts), so the
-- index can only narrow, never change an answer.
--
-- Triggers cannot use a WITH clause, so the positions 1..256 come from the table "TextPosition". A
-- normalized value longer than that (emails are limited to 254 characters and names to 200, which NFKC
-- can expand up to 18-fold; raw SQL could write anything) also gets the token o<org>nzz / o<org>mzz,
-- which every lookup includes: it is always a candidate and no recipient is missed. The bound keeps a
-- write cheap: substr() scans a UTF-8 value from its start, so indexing all of a 3,600-character name
-- took 60 ms.
--
-- The tokens are computed in one place, the view "RecipientGramSource", which the triggers read after
-- the row is written. The FTS5 table keeps only which recipient holds a token (content = '', detail =
-- none), and contentless_delete = 1 (SQLite 3.43; the service ships 3.49) lets a row be removed by its
-- rowid alone. A sqlite3 shell older than 3.43 cannot write to "Recipient" (or read "RecipientGram").
-- Like "RecipientText", it is keyed by rowid: after a VACUUM, which may renumber rowids, rebuild it with
--   DELETE FROM "RecipientGram";
--   INSERT INTO "RecipientGram"("rowid", "grams") SELECT "recipientRowid", "grams" FROM "RecipientGramSource";
CREATE TABLE "TextPosition" ("n" INTEGER NOT NULL PRIMARY KEY);

WITH RECURSIVE "p"("n") AS (SELECT 1 UNION ALL SELECT "n" + 1 FROM "p" WHERE "n" < 256)
INSERT INTO "TextPosition" ("n") SELECT "n" FROM "p";

CREATE VIEW "RecipientGramSource" AS
SELECT r."rowid" AS "recipientRowid",
  coalesce((SELECT group_concat('o' || hex(r."organizationId") || 'n1' || hex(substr(r."nameNormalized", "n", 1))
                         || CASE WHEN "n" < length(r."nameNormalized") THEN ' ' || 'o' || hex(r."organizationId") || 'n2' || hex(substr(r."nameNormalized", "n", 2)) ELSE '' END, ' ')
              FROM "TextPosition" WHERE "n" <= length(r."nameNormalized")), '')
  || CASE WHEN length(r."nameNormalized") > 256 THEN ' ' || 'o' || hex(r."organizationId") || 'nzz' ELSE '' END
  || ' ' ||
  coalesce((SELECT group_concat('o' || hex(r."organizationId") || 'm1' || hex(substr(r."emailNormalized", "n", 1))
                         || CASE WHEN "n" < length(r."emailNormalized") THEN ' ' || 'o' || hex(r."organizationId") || 'm2' || hex(substr(r."emailNormalized", "n", 2)) ELSE '' END, ' ')
              FROM "TextPosition" WHERE "n" <= length(r."emailNormalized")), '')
  || CASE WHEN length(r."emailNormalized") > 256 THEN ' ' || 'o' || hex(r."organizationId") || 'mzz' ELSE '' END AS "grams"
FROM "Recipient" r;

CREATE VIRTUAL TABLE "RecipientGram" USING fts5("grams", content = '', contentless_delete = 1, detail = none, tokenize = 'ascii');

INSERT INTO "RecipientGram"("rowid", "grams") SELECT "recipientRowid", "grams" FROM "RecipientGramSource";

CREATE TRIGGER "Recipient_gram_insert" AFTER INSERT ON "Recipient" BEGIN
  INSERT INTO "RecipientGram"("rowid", "grams") SELECT "recipientRowid", "grams" FROM "RecipientGramSource" WHERE "recipientRowid" = new."rowid";
END;

CREATE TRIGGER "Recipient_gram_delete" AFTER DELETE ON "Recipient" BEGIN
  DELETE FROM "RecipientGram" WHERE "rowid" = old."rowid";
END;

-- The WHEN clause skips the index work when the text did not change: creating a credential for a known
-- recipient runs an upsert whose DO UPDATE assigns "emailNormalized" its own value.
CREATE TRIGGER "Recipient_gram_update" AFTER UPDATE OF "organizationId", "nameNormalized", "emailNormalized" ON "Recipient"
WHEN old."organizationId" IS NOT new."organizationId" OR old."nameNormalized" IS NOT new."nameNormalized" OR old."emailNormalized" IS NOT new."emailNormalized" BEGIN
  DELETE FROM "RecipientGram" WHERE "rowid" = old."rowid";
  INSERT INTO "RecipientGram"("rowid", "grams") SELECT "recipientRowid", "grams" FROM "RecipientGramSource" WHERE "recipientRowid" = new."rowid";
END;

-- The trigram index's update trigger (recipient_text_search) gets the same WHEN clause.
DROP TRIGGER "Recipient_text_update";

CREATE TRIGGER "Recipient_text_update" AFTER UPDATE OF "nameNormalized", "emailNormalized" ON "Recipient"
WHEN old."nameNormalized" IS NOT new."nameNormalized" OR old."emailNormalized" IS NOT new."emailNormalized" BEGIN
  INSERT INTO "RecipientText"("RecipientText", "rowid", "nameNormalized", "emailNormalized")
  VALUES ('delete', old."rowid", old."nameNormalized", old."emailNormalized");
  INSERT INTO "RecipientText"("rowid", "nameNormalized", "emailNormalized")
  VALUES (new."rowid", new."nameNormalized", new."emailNormalized");
END;
