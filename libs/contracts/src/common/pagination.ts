import { ApiPropertyOptional } from './api-property';
import { IsOmittable } from './validation';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';

/**
 * Cursor pagination for lists the spec shows as `{ data: [...] }` (numbers, calls): the reply keeps `data`
 * and adds `has_more`; the next page starts after the last id of this one (docs/adr/0003-cursor-pagination.md).
 */
export class CursorPageQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50, description: 'Page size.' })
  @IsOmittable()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ description: 'Id of the last item of the previous page.' })
  @IsOmittable()
  @IsString()
  @MaxLength(100)
  starting_after?: string;
}

export const DEFAULT_PAGE_LIMIT = 50;

export interface CursorPage<T> {
  data: T[];
  has_more: boolean;
}
