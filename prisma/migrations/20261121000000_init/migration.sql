-- pg_trgm backs the case-insensitive substring search on "Trace"."name".
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateEnum
CREATE TYPE "RunStatus" AS ENUM ('RUNNING', 'COMPLETED', 'ERROR');

-- CreateEnum
CREATE TYPE "DecisionType" AS ENUM ('TOOL_SELECTION', 'ROUTING', 'RETRY', 'ESCALATION', 'MEMORY_RETRIEVAL', 'PLANNING', 'CUSTOM');

-- CreateEnum
CREATE TYPE "SpanType" AS ENUM ('LLM_CALL', 'TOOL_CALL', 'MEMORY_OP', 'CHAIN', 'AGENT', 'CUSTOM');

-- CreateEnum
CREATE TYPE "EventType" AS ENUM ('ERROR', 'RETRY', 'FALLBACK', 'CONTEXT_OVERFLOW', 'USER_FEEDBACK', 'CUSTOM');

-- CreateTable
CREATE TABLE "Trace" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "sessionId" TEXT,
    "status" "RunStatus" NOT NULL,
    "tags" TEXT[],
    "metadata" JSONB,
    "totalCost" DOUBLE PRECISION,
    "totalTokens" DOUBLE PRECISION,
    "totalDuration" DOUBLE PRECISION,
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "endedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Trace_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DecisionPoint" (
    "traceId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "type" "DecisionType" NOT NULL,
    "reasoning" TEXT,
    "chosen" JSONB,
    "alternatives" JSONB NOT NULL,
    "contextSnapshot" JSONB,
    "durationMs" DOUBLE PRECISION,
    "costUsd" DOUBLE PRECISION,
    "parentSpanId" TEXT,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "DecisionPoint_pkey" PRIMARY KEY ("traceId","id")
);

-- CreateTable
CREATE TABLE "Span" (
    "traceId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "parentSpanId" TEXT,
    "name" TEXT NOT NULL,
    "type" "SpanType" NOT NULL,
    "input" JSONB,
    "output" JSONB,
    "tokenCount" DOUBLE PRECISION,
    "costUsd" DOUBLE PRECISION,
    "durationMs" DOUBLE PRECISION,
    "status" "RunStatus" NOT NULL,
    "statusMessage" TEXT,
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "endedAt" TIMESTAMPTZ(3),
    "metadata" JSONB,

    CONSTRAINT "Span_pkey" PRIMARY KEY ("traceId","id")
);

-- CreateTable
CREATE TABLE "Event" (
    "traceId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "spanId" TEXT,
    "type" "EventType" NOT NULL,
    "name" TEXT NOT NULL,
    "metadata" JSONB,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Event_pkey" PRIMARY KEY ("traceId","id")
);

-- CreateIndex
CREATE INDEX "Trace_startedAt_id_idx" ON "Trace"("startedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Trace_status_startedAt_id_idx" ON "Trace"("status", "startedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Trace_sessionId_startedAt_id_idx" ON "Trace"("sessionId", "startedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Trace_name_trgm_idx" ON "Trace" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "DecisionPoint_traceId_timestamp_idx" ON "DecisionPoint"("traceId", "timestamp");

-- CreateIndex
CREATE INDEX "Span_traceId_startedAt_idx" ON "Span"("traceId", "startedAt");

-- CreateIndex
CREATE INDEX "Event_traceId_timestamp_idx" ON "Event"("traceId", "timestamp");

-- AddForeignKey
ALTER TABLE "DecisionPoint" ADD CONSTRAINT "DecisionPoint_traceId_fkey" FOREIGN KEY ("traceId") REFERENCES "Trace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Span" ADD CONSTRAINT "Span_traceId_fkey" FOREIGN KEY ("traceId") REFERENCES "Trace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Event" ADD CONSTRAINT "Event_traceId_fkey" FOREIGN KEY ("traceId") REFERENCES "Trace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
