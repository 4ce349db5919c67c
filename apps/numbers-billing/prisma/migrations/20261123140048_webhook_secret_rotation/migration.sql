-- AlterTable
ALTER TABLE "numbers" ADD COLUMN     "previous_webhook_secret_ciphertext" TEXT,
ADD COLUMN     "previous_webhook_secret_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "previous_webhook_secret_key_id" TEXT,
ADD COLUMN     "webhook_secret_rotated_at" TIMESTAMPTZ(3),
ADD COLUMN     "webhook_secret_rotation_key" TEXT;
