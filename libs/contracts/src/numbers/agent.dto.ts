import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsE164 } from '../common/phone';
import { AnalysisFieldBody, MAX_ANALYSIS_FIELDS } from './analysis-field.dto';

export const MAX_AGENT_GREETING_LENGTH = 500;
export const MAX_AGENT_INSTRUCTIONS_LENGTH = 8_000;

/** What the agent says first when the number has none (numbers-billing sends it; the console shows it). */
export const DEFAULT_AGENT_GREETING = 'Hello, thanks for calling. How can I help you today?';

/**
 * A number's agent settings (an extension of the spec's NumberCreate, docs/adr/0083-real-providers.md): what
 * the agent says first and how it behaves. Unset, the agent greets with the default and follows the default
 * instructions (answer for the business, take a message, transfer to `business_phone` when asked).
 */
export class AgentSettingsBody {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: MAX_AGENT_GREETING_LENGTH,
    example: 'Thanks for calling Pizza Planet, how can I help?',
    description: 'What the agent says when it answers. null: the default greeting.',
  })
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(MAX_AGENT_GREETING_LENGTH)
  greeting?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: MAX_AGENT_INSTRUCTIONS_LENGTH,
    example: 'We are open 11am to 10pm. Take orders for pickup; transfer catering questions.',
    description:
      "How the agent behaves: the business's facts and rules, in plain words. null: the default instructions.",
  })
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(MAX_AGENT_INSTRUCTIONS_LENGTH)
  instructions?: string | null;

  @ApiPropertyOptional({
    type: [AnalysisFieldBody],
    nullable: true,
    maxItems: MAX_ANALYSIS_FIELDS,
    description:
      "Fields the agent fills in after each call, read back in each call's `analysis.custom` (docs/call-analysis.md). " +
      'Names unique; `choices` with type enum only (1 to 50, each once). null or left out: none.',
  })
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsArray()
  @ArrayMaxSize(MAX_ANALYSIS_FIELDS)
  @ValidateNested({ each: true })
  @Type(() => AnalysisFieldBody)
  analysis_fields?: AnalysisFieldBody[] | null;
}

export const AGENT_STATUSES = ['pending', 'ready', 'failed'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** `GET /v1/numbers/{id}/agent`: the settings, and whether the agent platform has them yet. */
export class AgentSettingsView {
  @ApiProperty({ type: String, nullable: true }) greeting: string | null;
  @ApiProperty({ type: String, nullable: true }) instructions: string | null;
  @ApiProperty({ type: [AnalysisFieldBody], description: 'The declared analysis fields, in the order given.' })
  analysis_fields: AnalysisFieldBody[];
  @ApiProperty({
    enum: AGENT_STATUSES,
    description:
      '`ready`: the agent answering the number has these settings; `pending`: they are on their way to the agent ' +
      'platform (retried until they arrive); `failed`: the platform refused them (see docs/providers.md).',
  })
  status: AgentStatus;
}

/** Internal: `GET /numbers/{id}/agent` as the gateway forwards it. */
export class GetNumberAgentQuery {
  @IsString()
  @Matches(/^(num_)?[1-9]\d{0,17}$/, { message: 'id must be a number id (num_<n> or <n>)' })
  id: string;
}

/** Internal: `PUT /numbers/{id}/agent` as the gateway forwards it. */
export class UpdateNumberAgentCommand extends AgentSettingsBody {
  @IsString()
  @Matches(/^(num_)?[1-9]\d{0,17}$/, { message: 'id must be a number id (num_<n> or <n>)' })
  id: string;
}

/**
 * Internal: Twilio is ringing one of our numbers and asks its voice URL what to do (ADR 0083). The gateway verified
 * Twilio's signature; numbers-billing answers with where the call goes.
 */
export class AnswerCallCommand {
  @IsString() @MaxLength(64) call_sid: string;
  @IsString() @MaxLength(64) from: string;
  @IsE164() to: string;
}

export const ANSWER_CALL_ACTIONS = ['sip', 'reject'] as const;

export class AnswerCallReply {
  @IsIn(ANSWER_CALL_ACTIONS) action: 'sip' | 'reject';
  /** With `sip`: the agent's SIP address for this call. */
  @IsOptional() @IsString() sip_uri?: string;
  /** With `reject`: why (for the log; Twilio is told `busy` or `rejected`). */
  @IsOptional() @IsString() reason?: string;
}
