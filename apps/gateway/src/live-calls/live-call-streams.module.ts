import { Module } from '@nestjs/common';
import { LiveCallStreams } from './live-call-streams';

/**
 * The live call streams of this process, one instance shared by the public API (`/v1/calls/live`, revoked keys'
 * streams ended by WebhookListenEndings) and the console (`/console/api/calls/live`): one per-account cap and one
 * shutdown cover every stream, whichever surface opened it. Its dependencies (NATS, config, logger) are the core
 * module's, which is global.
 */
@Module({ providers: [LiveCallStreams], exports: [LiveCallStreams] })
export class LiveCallStreamsModule {}
