import { Injectable } from '@nestjs/common';
import { GatewayPrisma } from '../prisma/gateway-prisma';

export interface WindowCount {
  count: number;
  windowStart: Date;
}

@Injectable()
export class RateLimitRepository {
  constructor(private readonly prisma: GatewayPrisma) {}

  /**
   * Counts one request in the key's current window and returns the count so far, in one atomic statement, so
   * every gateway replica shares the same count. A window older than its length is replaced by a new one.
   */
  async hit(keyId: string, windowSeconds: number): Promise<WindowCount> {
    const rows = await this.prisma.$queryRaw<{ count: number; window_start: Date }[]>`
      INSERT INTO rate_limit_windows (key_id, window_start, count)
      VALUES (${keyId}, now(), 1)
      ON CONFLICT (key_id) DO UPDATE SET
        window_start = CASE WHEN rate_limit_windows.window_start <= now() - make_interval(secs => ${windowSeconds})
                            THEN now() ELSE rate_limit_windows.window_start END,
        count = CASE WHEN rate_limit_windows.window_start <= now() - make_interval(secs => ${windowSeconds})
                     THEN 1 ELSE rate_limit_windows.count + 1 END
      RETURNING count, window_start`;
    return { count: rows[0].count, windowStart: rows[0].window_start };
  }
}
