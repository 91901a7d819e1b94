-- Substring search on recipients (`contains`, `startsWith`, `endsWith` on recipient.name and
-- recipient.email): trigram GIN indexes, which PostgreSQL uses for LIKE '%...%' directly. pg_trgm ships
-- with PostgreSQL and is a trusted extension (a database owner may create it), but a managed service
-- can still refuse it: then the search keeps working by reading the organization's recipients, as it
-- did before this migration, and the server logs nothing worse than this NOTICE.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm could not be created (%): recipient substring search runs without trigram indexes', SQLERRM;
END $$;

DO $$
DECLARE
  trgm_schema text;
BEGIN
  SELECT n.nspname INTO trgm_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
  IF trgm_schema IS NOT NULL THEN
    EXECUTE format('CREATE INDEX "Recipient_nameNormalized_trgm_idx" ON "Recipient" USING gin ("nameNormalized" %I.gin_trgm_ops)', trgm_schema);
    EXECUTE format('CREATE INDEX "Recipient_emailNormalized_trgm_idx" ON "Recipient" USING gin ("emailNormalized" %I.gin_trgm_ops)', trgm_schema);
  END IF;
END $$;
