-- CreateTable
CREATE TABLE "endpoint_alert_mails" (
    "event_id" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "endpoint_alert_mails_pkey" PRIMARY KEY ("event_id","recipient")
);
