import { ApiPropertyOptional } from './api-property';
import { IsOmittable } from './validation';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';

/**
 * Cursor pagination for lists the spec shows as `{ data: [...] }` (numbers, calls): the reply keeps `data`
 * and adds `has_more`; the next page starts after the last id of this one (docs/adr/0057-public-api-rules.md).
 */
export class CursorPageQuery {
  @PageLimit()
  limit?: number;

  @StartingAfter()
  starting_after?: string;
}

/** The page size of a cursor-paged list (`limit`), for a query that cannot extend `CursorPageQuery`. */
export function PageLimit(): PropertyDecorator {
  return composed(
    ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50, description: 'Page size.' }),
    IsOmittable(),
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(100),
  );
}

/** The cursor of a cursor-paged list (`starting_after`), for a query that cannot extend `CursorPageQuery`. */
export function StartingAfter(): PropertyDecorator {
  return composed(
    ApiPropertyOptional({ description: 'Id of the last item of the previous page.' }),
    IsOmittable(),
    IsString(),
    MaxLength(100),
  );
}

/** Applies the decorators in the order they would be written above a property. */
function composed(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => {
    for (const decorator of [...decorators].reverse()) decorator(target, key);
  };
}

export const DEFAULT_PAGE_LIMIT = 50;

export interface CursorPage<T> {
  data: T[];
  has_more: boolean;
}
