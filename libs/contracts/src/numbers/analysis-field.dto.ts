import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { IsOmittable } from '../common/validation';
import { ArrayMaxSize, IsArray, IsIn, IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

/** The types of value an analysis field takes (Retell's `post_call_analysis_data` item types). */
export const ANALYSIS_FIELD_TYPES = ['string', 'number', 'boolean', 'enum'] as const;
export type AnalysisFieldType = (typeof ANALYSIS_FIELD_TYPES)[number];

export const MAX_ANALYSIS_FIELDS = 20;
export const MAX_ANALYSIS_CHOICES = 50;
export const MAX_ANALYSIS_DESCRIPTION_LENGTH = 500;
export const MAX_ANALYSIS_CHOICE_LENGTH = 100;
/**
 * snake_case (a lower-case letter, then lower-case letters, digits and single underscores), not a reserved name.
 */
export const ANALYSIS_FIELD_NAME_PATTERN = /^(?!(?:outcome|lost_item)$)[a-z](?:_?[a-z0-9])*$/;
export const MAX_ANALYSIS_FIELD_NAME_LENGTH = 40;
/**
 * Names the agent platform's analysis already uses for Switchboard itself: `outcome` (the call's outcome word) and
 * `lost_item` (what a lost-and-found call gathered, docs/adr/0079). A business field may not take them.
 */
export const RESERVED_ANALYSIS_FIELD_NAMES = ['outcome', 'lost_item'] as const;

/** A field the number's agent fills in after each call: declared with the agent settings, read back on the call. */
export class AnalysisFieldBody {
  @ApiProperty({
    example: 'order_type',
    maxLength: MAX_ANALYSIS_FIELD_NAME_LENGTH,
    description: "snake_case, unique among the number's fields; not `outcome` or `lost_item`.",
  })
  @IsString()
  @MaxLength(MAX_ANALYSIS_FIELD_NAME_LENGTH)
  @Matches(ANALYSIS_FIELD_NAME_PATTERN, {
    message: `name must be snake_case (a-z, 0-9 and _, starting with a letter), not ${RESERVED_ANALYSIS_FIELD_NAMES.join(' or ')}`,
  })
  name: string;

  @ApiProperty({ enum: ANALYSIS_FIELD_TYPES, example: 'enum', description: 'The type of value the agent gives.' })
  @IsIn(ANALYSIS_FIELD_TYPES)
  type: AnalysisFieldType;

  @ApiProperty({
    example: 'Whether the caller wants the order for pickup or delivery.',
    maxLength: MAX_ANALYSIS_DESCRIPTION_LENGTH,
    description: 'What the agent should put in the field, in plain words.',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_ANALYSIS_DESCRIPTION_LENGTH)
  description: string;

  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: MAX_ANALYSIS_CHOICES,
    example: ['pickup', 'delivery'],
    description: 'With type `enum` only (required there): the values the field may take, each unique.',
  })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(MAX_ANALYSIS_CHOICES)
  @IsString({ each: true })
  @MaxLength(MAX_ANALYSIS_CHOICE_LENGTH, { each: true })
  choices?: string[];
}

/** A declared field as services keep it (the body, validated). */
export interface AnalysisFieldDefinition {
  name: string;
  type: AnalysisFieldType;
  description: string;
  choices?: string[];
}

/**
 * What the field-by-field rules cannot see, across the fields of one agent's settings: names unique, `choices` given
 * (1 or more, each once) with type `enum` and only there. The first problem, naming the field's place
 * (`analysis_fields[2].choices ...`), or null. numbers-billing answers it as a 400 invalid_request.
 */
export function analysisFieldsProblem(fields: readonly AnalysisFieldDefinition[]): string | null {
  const seen = new Set<string>();
  for (const [index, field] of fields.entries()) {
    const at = `analysis_fields[${index}]`;
    if (seen.has(field.name)) return `${at}.name ${field.name} is declared twice; names must be unique`;
    seen.add(field.name);
    if (field.description.trim() === '') return `${at}.description must not be blank`;
    if (field.type !== 'enum') {
      if (field.choices !== undefined) return `${at}.choices is taken only with type enum`;
      continue;
    }
    if (!field.choices || field.choices.length === 0) return `${at}.choices must be given with type enum (1 or more)`;
    if (field.choices.some((choice) => choice.trim() === '')) return `${at}.choices must not hold an empty choice`;
    if (new Set(field.choices).size !== field.choices.length) return `${at}.choices must not repeat a choice`;
  }
  return null;
}
