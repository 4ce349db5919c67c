-- Hand-written (docs/adr/0121-one-number-in-service-per-phone-number.md): Prisma cannot express a partial unique
-- index. At most one number that is not released (active or past_due) holds a phone number; released ones keep it
-- for the history of who held it when. `ProvisioningService` refuses a purchase that would break it; this index is
-- the rule itself, so no race can break it either.

-- A database may already hold live duplicates (issue 47: the Twilio stand-in sold numbers the simulated pool had
-- handed out). They are resolved before the index is made, the same way every time: per phone number the row
-- provisioned first (created_at, then id) keeps it, as the purchase check would have refused each later one; every
-- later row is released now. Its release is published as any release is (`number.released` in the outbox, with the
-- next version, so calls-media ends its tenure), and the billing cycle's sweep gives it back at the provider of its
-- account's mode (provider_released_at stays null). Nothing is refunded here (ADR 0121 says what the operator does).
WITH ranked AS (
  SELECT "id", row_number() OVER (PARTITION BY "phone_number" ORDER BY "created_at", "id") AS "holder_rank"
    FROM "numbers"
   WHERE "status" <> 'released'
), released AS (
  UPDATE "numbers" AS n
     SET "status" = 'released', "released_at" = now(), "version" = n."version" + 1, "updated_at" = now()
    FROM ranked
   WHERE n."id" = ranked."id" AND ranked."holder_rank" > 1
  RETURNING n."id" AS "number_id", n."account_id", n."phone_number", n."business_phone", n."webhook_url", n."version", n."released_at"
), events AS (
  SELECT md5('number.released:num_' || "number_id" || ':' || "version")::uuid AS "event_id",
         to_char("released_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "at",
         released.*
    FROM released
)
INSERT INTO "outbox_events" ("id", "type", "payload", "headers")
SELECT events."event_id", 'number.released',
       jsonb_build_object(
         'id', events."event_id"::text,
         'type', 'number.released',
         'occurred_at', events."at",
         'correlation_id', 'migration:20261128100000_one_number_in_service_per_phone_number',
         'causation_id', NULL,
         'data', jsonb_build_object(
           'number_id', 'num_' || events."number_id",
           'account_id', events."account_id",
           'phone_number', events."phone_number",
           'business_phone', events."business_phone",
           'status', 'released',
           'webhook_url', events."webhook_url",
           'answering', false,
           'version', events."version"::text,
           'changed_at', events."at")),
       '{}'::jsonb
  FROM events;

-- CreateIndex
CREATE UNIQUE INDEX "numbers_phone_number_in_service_key" ON "numbers"("phone_number") WHERE "status" <> 'released';
