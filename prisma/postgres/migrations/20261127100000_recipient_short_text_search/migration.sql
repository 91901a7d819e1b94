-- Substring search for needles of 1 and 2 characters (`contains`, `startsWith`, `endsWith` on
-- recipient.name and recipient.email), which pg_trgm cannot look up: it finds no trigram in them and
-- reads its whole index instead. Every recipient's normalized name and email are kept as the set of
-- their characters and of their pairs of adjacent characters, in generated columns with GIN indexes;
-- lib/search/text-index.ts adds `"nameGrams" @> ARRAY[needle]` next to the exact LIKE, which still
-- decides. Built-in array GIN only: these exist whether or not pg_trgm could be created.
--
-- Stored columns rather than indexes on the function's result: where the planner does not use the
-- index (a small organization, a common character), the condition is checked row by row, and calling
-- the function costs about 35 us a row where reading a stored array costs next to nothing.
--
-- The function is IMMUTABLE (its answer depends on its argument only), as a generated column's
-- expression must be, and uses pg_catalog functions only, so it gives the same answer under any
-- search_path. The characters come from string_to_array(t, NULL) and each one's successor from lead():
-- linear in the length, where substr(t, i, 2) per position would scan from the start each time
-- (UTF-8), 0.6 s for a value of 9,000 characters.
-- Characters are counted as UTF-8 code points, here and in the service; a SQL_ASCII database would
-- split bytes and the index would miss matches, so such a database is refused with a clear message.
DO $$
BEGIN
  IF current_setting('server_encoding') <> 'UTF8' THEN
    RAISE EXCEPTION 'the database encoding is %, and this service needs UTF8 (CREATE DATABASE ... ENCODING ''UTF8'')', current_setting('server_encoding');
  END IF;
END $$;

CREATE FUNCTION "cis_text_grams"(t text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT coalesce(array_agg(DISTINCT g), '{}')
  FROM (SELECT c, lead(c) OVER (ORDER BY i) AS next FROM unnest(string_to_array(t, NULL)) WITH ORDINALITY AS u(c, i)) AS chars,
       LATERAL (VALUES (c), (c || next)) AS grams(g)
  WHERE g IS NOT NULL
$$;

ALTER TABLE "Recipient"
  ADD COLUMN "nameGrams" text[] GENERATED ALWAYS AS ("cis_text_grams"("nameNormalized")) STORED,
  ADD COLUMN "emailGrams" text[] GENERATED ALWAYS AS ("cis_text_grams"("emailNormalized")) STORED;

CREATE INDEX "Recipient_nameGrams_idx" ON "Recipient" USING gin ("nameGrams");
CREATE INDEX "Recipient_emailGrams_idx" ON "Recipient" USING gin ("emailGrams");

-- New columns have no statistics until analyzed; without them the planner took the pair of a common
-- character ('e', 180,000 recipients) for a rare one.
ANALYZE "Recipient";
