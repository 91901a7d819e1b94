-- Substring search for needles of 1 and 2 characters (`contains`, `startsWith`, `endsWith` on
-- recipient.name and recipient.email), which pg_trgm cannot look up: it finds no trigram in them and
-- reads its whole index instead. Every recipient's normalized name and email are indexed (GIN) as the
-- set of their characters and of their pairs of adjacent characters; lib/search/sql.ts adds
-- `cis_text_grams(column) @> ARRAY[needle]` next to the exact LIKE, which still decides. Built-in GIN
-- array support only: these indexes exist whether or not pg_trgm could be created.
--
-- The function is IMMUTABLE (its answer depends on its argument only), as an index expression must be,
-- and uses pg_catalog functions only, so it gives the same answer under any search_path (maintenance
-- commands run with a restricted one).
-- The characters come from string_to_array(t, NULL) and each one's successor from lead(): linear in the
-- length, where substr(t, i, 2) per position would scan from the start each time (UTF-8), 0.6 s for a
-- value of 9,000 characters.
CREATE FUNCTION "cis_text_grams"(t text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT coalesce(array_agg(DISTINCT g), '{}')
  FROM (SELECT c, lead(c) OVER (ORDER BY i) AS next FROM unnest(string_to_array(t, NULL)) WITH ORDINALITY AS u(c, i)) AS chars,
       LATERAL (VALUES (c), (c || next)) AS grams(g)
  WHERE g IS NOT NULL
$$;

CREATE INDEX "Recipient_nameNormalized_grams_idx" ON "Recipient" USING gin ("cis_text_grams"("nameNormalized"));
CREATE INDEX "Recipient_emailNormalized_grams_idx" ON "Recipient" USING gin ("cis_text_grams"("emailNormalized"));
