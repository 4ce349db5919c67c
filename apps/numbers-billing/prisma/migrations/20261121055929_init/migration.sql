-- CreateTable
CREATE TABLE "accounts" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "balance_millicents" BIGINT NOT NULL DEFAULT 0,
    "tier" TEXT NOT NULL DEFAULT 'starter',
    "number_limit" INTEGER NOT NULL DEFAULT 5,
    "auto_top_up_threshold_cents" INTEGER,
    "auto_top_up_amount_cents" INTEGER,
    "allowance_exhausted_period" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_entries" (
    "id" BIGSERIAL NOT NULL,
    "account_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "amount_millicents" BIGINT NOT NULL,
    "balance_after_millicents" BIGINT NOT NULL,
    "description" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "numbers" (
    "id" BIGSERIAL NOT NULL,
    "account_id" TEXT NOT NULL,
    "phone_number" TEXT NOT NULL,
    "business_phone" TEXT NOT NULL,
    "area_code" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "webhook_url" TEXT,
    "webhook_secret_key_id" TEXT NOT NULL,
    "webhook_secret_ciphertext" TEXT NOT NULL,
    "periods_charged" INTEGER NOT NULL DEFAULT 1,
    "next_charge_at" TIMESTAMPTZ(3) NOT NULL,
    "past_due_since" TIMESTAMPTZ(3),
    "released_at" TIMESTAMPTZ(3),
    "provider_released_at" TIMESTAMPTZ(3),
    "version" BIGINT NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "numbers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "number_orders" (
    "id" UUID NOT NULL,
    "account_id" TEXT NOT NULL,
    "idempotency_key" TEXT,
    "fingerprint" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "business_phone" TEXT NOT NULL,
    "area_code" TEXT NOT NULL,
    "webhook_url" TEXT,
    "hold_millicents" BIGINT NOT NULL,
    "number_id" BIGINT,
    "failure_code" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "number_orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "talk_time_usage" (
    "account_id" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "seconds" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "talk_time_usage_pkey" PRIMARY KEY ("account_id","period")
);

-- CreateTable
CREATE TABLE "auto_top_up_attempts" (
    "id" UUID NOT NULL,
    "account_id" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "payment_id" TEXT,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "auto_top_up_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "simulated_provider_stock" (
    "area_code" TEXT NOT NULL,
    "available" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "simulated_provider_stock_pkey" PRIMARY KEY ("area_code")
);

-- CreateTable
CREATE TABLE "simulated_provider_numbers" (
    "phone_number" TEXT NOT NULL,
    "area_code" TEXT NOT NULL,
    "order_ref" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "sold_at" TIMESTAMPTZ(3) NOT NULL,
    "released_at" TIMESTAMPTZ(3),

    CONSTRAINT "simulated_provider_numbers_pkey" PRIMARY KEY ("phone_number")
);

-- CreateTable
CREATE TABLE "simulated_provider_faults" (
    "id" INTEGER NOT NULL,
    "provision_failures" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "simulated_provider_faults_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "simulated_payment_charges" (
    "idempotency_key" TEXT NOT NULL,
    "customer_ref" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "simulated_payment_charges_pkey" PRIMARY KEY ("idempotency_key")
);

-- CreateTable
CREATE TABLE "simulated_payment_faults" (
    "id" INTEGER NOT NULL,
    "charge_failures" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "simulated_payment_faults_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "headers" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_reference_key" ON "ledger_entries"("reference");

-- CreateIndex
CREATE INDEX "ledger_entries_account_id_id_idx" ON "ledger_entries"("account_id", "id");

-- CreateIndex
CREATE INDEX "numbers_account_id_status_idx" ON "numbers"("account_id", "status");

-- CreateIndex
CREATE INDEX "numbers_status_next_charge_at_idx" ON "numbers"("status", "next_charge_at");

-- CreateIndex
CREATE INDEX "numbers_account_id_created_at_idx" ON "numbers"("account_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "number_orders_number_id_key" ON "number_orders"("number_id");

-- CreateIndex
CREATE INDEX "number_orders_account_id_status_updated_at_idx" ON "number_orders"("account_id", "status", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "number_orders_account_id_idempotency_key_key" ON "number_orders"("account_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "auto_top_up_attempts_account_id_status_idx" ON "auto_top_up_attempts"("account_id", "status");

-- CreateIndex
CREATE INDEX "auto_top_up_attempts_status_created_at_idx" ON "auto_top_up_attempts"("status", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "simulated_provider_numbers_order_ref_key" ON "simulated_provider_numbers"("order_ref");

-- CreateIndex
CREATE INDEX "simulated_provider_numbers_area_code_status_idx" ON "simulated_provider_numbers"("area_code", "status");

-- CreateIndex
CREATE INDEX "outbox_events_published_at_created_at_idx" ON "outbox_events"("published_at", "created_at");

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "numbers" ADD CONSTRAINT "numbers_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
