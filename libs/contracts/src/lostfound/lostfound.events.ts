import { IsBoolean, IsIn, IsInt, IsISO8601, IsString, Matches, Max, Min } from 'class-validator';
import { ACCOUNT_ID_PATTERN, MAX_INT4 } from '../common/validation';
import { defineEvent, STREAMS } from '../messaging/event';
import { MAX_STORED_ID } from './lostfound-validation';

/**
 * Lost-and-found integration events (spec part 6). They carry ids, categories and dates only: never the
 * claimant's name, phone, email or proof note, and never an item's description (docs/adr/0079).
 */
export const VALUE_CLASSES = ['high', 'low', 'urgent'] as const;
export type ValueClass = (typeof VALUE_CLASSES)[number];

export class FoundLoggedData {
  @IsString() @Matches(ACCOUNT_ID_PATTERN) account_id: string;
  @IsInt() @Min(1) @Max(MAX_STORED_ID) location_id: number;
  @IsInt() @Min(1) @Max(MAX_STORED_ID) found_item_id: number;
  @IsString() category: string;
  @IsIn(VALUE_CLASSES) value_class: ValueClass;
  @Matches(/^\d{4}-\d{2}-\d{2}$/) found_date: string;
  /** Open claims of the location the new item matched (each claimant texted once). */
  @IsInt() @Min(0) @Max(MAX_INT4) matched_claims: number;
  @IsISO8601() logged_at: string;
}

export class ClaimFiledData {
  @IsString() @Matches(ACCOUNT_ID_PATTERN) account_id: string;
  @IsInt() @Min(1) @Max(MAX_STORED_ID) location_id: number;
  @IsInt() @Min(1) @Max(MAX_STORED_ID) claim_id: number;
  @IsString() category: string;
  @IsIn(VALUE_CLASSES) value_class: ValueClass;
  @IsBoolean() has_match: boolean;
  @IsISO8601() filed_at: string;
}

export class ReunitedData {
  @IsString() @Matches(ACCOUNT_ID_PATTERN) account_id: string;
  @IsInt() @Min(1) @Max(MAX_STORED_ID) location_id: number;
  @IsInt() @Min(1) @Max(MAX_STORED_ID) claim_id: number;
  @IsInt() @Min(1) @Max(MAX_STORED_ID) found_item_id: number;
  @IsString() category: string;
  @IsBoolean() verified: boolean;
  @IsISO8601() reunited_at: string;
}

export const FoundLoggedEvent = defineEvent('lostfound.found_logged', STREAMS.lostfound, FoundLoggedData);
export const ClaimFiledEvent = defineEvent('lostfound.claim_filed', STREAMS.lostfound, ClaimFiledData);
export const ReunitedEvent = defineEvent('lostfound.reunited', STREAMS.lostfound, ReunitedData);
