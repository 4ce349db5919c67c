-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "WidgetKind" AS ENUM ('small', 'large');

-- CreateTable
CREATE TABLE "widgets" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "WidgetKind" NOT NULL DEFAULT 'small',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "widgets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "parts" (
    "id" BIGSERIAL NOT NULL,
    "widget_id" UUID NOT NULL,
    "label" TEXT NOT NULL,

    CONSTRAINT "parts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "widgets_name_key" ON "widgets"("name");

-- CreateIndex
CREATE INDEX "parts_widget_id_idx" ON "parts"("widget_id");

-- AddForeignKey
ALTER TABLE "parts" ADD CONSTRAINT "parts_widget_id_fkey" FOREIGN KEY ("widget_id") REFERENCES "widgets"("id") ON DELETE CASCADE ON UPDATE CASCADE;
