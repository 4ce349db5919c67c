-- CreateTable
CREATE TABLE "webhook_host_slots" (
    "host" TEXT NOT NULL,
    "slot" INTEGER NOT NULL,
    "holder" TEXT NOT NULL,
    "lease_until" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_host_slots_pkey" PRIMARY KEY ("host","slot")
);
