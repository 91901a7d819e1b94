-- Substring search on recipients (`contains`, `startsWith`, `endsWith` on recipient.name and
-- recipient.email): an FTS5 index with the trigram tokenizer over the normalized columns, kept in step
-- with "Recipient" by triggers. lib/search/sql.ts uses it to narrow the candidates; the exact LIKE on
-- "Recipient" still decides, so the index can only speed a search up, never change its answer.
-- It is keyed by the recipients' rowids: after a VACUUM (which may renumber them) rebuild it with
-- INSERT INTO "RecipientText"("RecipientText") VALUES ('rebuild').
CREATE VIRTUAL TABLE "RecipientText" USING fts5(
  "nameNormalized", "emailNormalized",
  content = 'Recipient', content_rowid = 'rowid', tokenize = 'trigram'
);

INSERT INTO "RecipientText"("RecipientText") VALUES ('rebuild');

CREATE TRIGGER "Recipient_text_insert" AFTER INSERT ON "Recipient" BEGIN
  INSERT INTO "RecipientText"("rowid", "nameNormalized", "emailNormalized")
  VALUES (new."rowid", new."nameNormalized", new."emailNormalized");
END;

CREATE TRIGGER "Recipient_text_delete" AFTER DELETE ON "Recipient" BEGIN
  INSERT INTO "RecipientText"("RecipientText", "rowid", "nameNormalized", "emailNormalized")
  VALUES ('delete', old."rowid", old."nameNormalized", old."emailNormalized");
END;

CREATE TRIGGER "Recipient_text_update" AFTER UPDATE OF "nameNormalized", "emailNormalized" ON "Recipient" BEGIN
  INSERT INTO "RecipientText"("RecipientText", "rowid", "nameNormalized", "emailNormalized")
  VALUES ('delete', old."rowid", old."nameNormalized", old."emailNormalized");
  INSERT INTO "RecipientText"("rowid", "nameNormalized", "emailNormalized")
  VALUES (new."rowid", new."nameNormalized", new."emailNormalized");
END;
