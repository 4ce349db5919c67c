import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { IsIn, IsISO8601, IsString, Matches } from 'class-validator';
import { IsOmittable } from '../common/validation';

export const CALL_STATS_GROUPS = ['day', 'outcome', 'sentiment', 'number'] as const;
export type CallStatsGroupBy = (typeof CALL_STATS_GROUPS)[number];
/** The range `GET /v1/calls/stats` covers when `since` is left out: the 30 days before `until`. */
export const DEFAULT_STATS_DAYS = 30;
/** The longest range one stats request covers (a longer one is a 400): a year and a day. */
export const MAX_STATS_DAYS = 366;

/** `GET /v1/calls/stats`: the account's calls in a range, counted by day, outcome, sentiment or number. */
export class CallStatsQuery {
  @ApiPropertyOptional({
    format: 'date-time',
    description: `Calls that started at or after this instant. Default: ${DEFAULT_STATS_DAYS} days before until.`,
  })
  @IsOmittable()
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 date-time' })
  since?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Calls that started before this instant. Default: now.' })
  @IsOmittable()
  @IsISO8601({ strict: true }, { message: 'until must be an ISO 8601 date-time' })
  until?: string;

  @ApiPropertyOptional({ example: 'num_1', description: 'Only calls taken by this number (`num_<n>` or `<n>`).' })
  @IsOmittable()
  @IsString()
  @Matches(/^(num_)?[1-9]\d{0,17}$/, { message: 'number_id must be a number id (num_<n> or <n>)' })
  number_id?: string;

  @ApiPropertyOptional({
    enum: CALL_STATS_GROUPS,
    default: 'day',
    description:
      '`day`: one group per UTC day of the range, days without calls included; `outcome`, `sentiment`, `number`: one ' +
      'group per value that has calls in the range, most calls first.',
  })
  @IsOmittable()
  @IsIn(CALL_STATS_GROUPS)
  group_by?: CallStatsGroupBy;
}

export class CallStatsGroup {
  @ApiProperty({
    example: '2026-11-20',
    description: 'The day (YYYY-MM-DD, UTC), the outcome, the sentiment or the number id the row counts.',
  })
  group: string;
  @ApiProperty({ description: 'Calls that started in the range and the group.' }) calls: number;
  @ApiProperty({ description: 'Their talk time in whole minutes, rounded down (docs/money-and-minutes.md).' })
  minutes: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Their mean duration in seconds, to 0.1; null: no calls.' })
  average_duration_sec: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: 1,
    description:
      'Of the calls the agent judged (analysis.successful true or false), the share judged successful, to 0.001; ' +
      'null when the agent judged none of the group.',
  })
  success_rate: number | null;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { order_placed: 12, transferred: 3 },
    description: "With group_by=day only: the day's calls by outcome.",
  })
  outcomes?: Record<string, number>;
}

export class CallStats {
  @ApiProperty({ type: [CallStatsGroup], description: 'Days oldest first; other groups most calls first.' })
  data: CallStatsGroup[];
}
