-- Each process keeps the callers behind API tokens (lib/organizations/caller-cache.ts) and forgets them
-- when told to on the channel `cis_callers_changed`. These triggers tell it, whoever writes: a token
-- revoked, re-pointed or deleted (deleting an organization deletes its tokens), or a change to what a
-- caller carries of its organization. NOTIFY is sent when the transaction commits, once per
-- transaction however many rows changed. A token's "lastUsedAt", updated on use, tells nobody.
CREATE FUNCTION "cis_notify_callers_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cis_callers_changed', '');
  RETURN NULL;
END $$;

CREATE TRIGGER "ApiToken_caller_changed" AFTER UPDATE ON "ApiToken" FOR EACH ROW
  WHEN (OLD."revokedAt" IS DISTINCT FROM NEW."revokedAt"
     OR OLD."tokenHash" IS DISTINCT FROM NEW."tokenHash"
     OR OLD."organizationId" IS DISTINCT FROM NEW."organizationId")
  EXECUTE FUNCTION "cis_notify_callers_changed"();

CREATE TRIGGER "ApiToken_caller_deleted" AFTER DELETE ON "ApiToken" FOR EACH ROW
  EXECUTE FUNCTION "cis_notify_callers_changed"();

CREATE TRIGGER "Organization_caller_changed" AFTER UPDATE ON "Organization" FOR EACH ROW
  WHEN (OLD."slug" IS DISTINCT FROM NEW."slug"
     OR OLD."name" IS DISTINCT FROM NEW."name"
     OR OLD."plan" IS DISTINCT FROM NEW."plan"
     OR OLD."monthlyIssueQuota" IS DISTINCT FROM NEW."monthlyIssueQuota")
  EXECUTE FUNCTION "cis_notify_callers_changed"();

-- An operator's TRUNCATE skips row triggers.
CREATE TRIGGER "ApiToken_caller_truncated" AFTER TRUNCATE ON "ApiToken" FOR EACH STATEMENT
  EXECUTE FUNCTION "cis_notify_callers_changed"();
