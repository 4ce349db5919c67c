import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { IsOmittable } from '../common/validation';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

export const DEFAULT_USAGE_DAYS = 30;
export const MAX_USAGE_DAYS = 90;

/** `GET /console/api/usage/daily?days=N`: the last N days (UTC), today included. */
export class DailyUsageQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_USAGE_DAYS, default: DEFAULT_USAGE_DAYS })
  @IsOmittable()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_USAGE_DAYS)
  days?: number;
}

export class DailyUsageDay {
  @ApiProperty({ example: '2026-11-20', description: 'A UTC calendar day.' }) date: string;
  @ApiProperty({ description: 'Calls that started that day.' }) calls: number;
  @ApiProperty({ description: 'Their talk time, in seconds.' }) seconds: number;
}

export class DailyUsage {
  @ApiProperty({ type: [DailyUsageDay], description: 'Oldest first; every day of the range, days without calls as 0.' })
  data: DailyUsageDay[];
}
