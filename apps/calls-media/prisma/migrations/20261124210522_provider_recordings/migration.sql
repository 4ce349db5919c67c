-- CreateTable
CREATE TABLE "provider_recordings" (
    "call_sid" TEXT NOT NULL,
    "recording_sid" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "etag" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "stored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "provider_recordings_pkey" PRIMARY KEY ("call_sid")
);

-- CreateIndex
CREATE UNIQUE INDEX "provider_recordings_recording_sid_key" ON "provider_recordings"("recording_sid");
