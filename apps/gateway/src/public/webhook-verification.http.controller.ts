import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { WebhookVerificationRequest, WebhookVerificationResult } from '@switchboard/contracts';
import { explainVerification } from '@switchboard/signing';
import { ApiKeyGuard } from '../auth';
import { Idempotent } from '../idempotency';

const ERROR = { $ref: '#/components/schemas/Error' };

/**
 * The verification self-test: explains why a delivery does not verify. Pure computation in the gateway with the
 * receivers' own code (libs/signing), so it answers exactly what `verify` would; the secret is neither stored nor
 * logged (request bodies are never logged).
 */
@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('webhooks')
@UseGuards(ApiKeyGuard)
export class WebhookVerificationHttpController {
  @Post('verify')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Explain why a webhook does not verify',
    description:
      'Give the body and headers your receiver got and the secret you verify with; the answer says whether it verifies and, ' +
      'if not, why: a body parsed and serialised again or with a newline added, clock skew (with the seconds), a wrong ' +
      'secret, a secret with spaces or without its whsec_ prefix, a timestamp in milliseconds, or a header in the wrong format. ' +
      'Nothing is sent or stored.',
  })
  @ApiOkResponse({ type: WebhookVerificationResult })
  @ApiResponse({ status: 400, description: 'invalid_request: a missing or malformed field', schema: ERROR })
  @ApiResponse({ status: 409, description: 'idempotency_key_in_use', schema: ERROR })
  @ApiResponse({ status: 422, description: 'idempotency_key_reused', schema: ERROR })
  verify(@Body() body: WebhookVerificationRequest): WebhookVerificationResult {
    return explainVerification({
      secret: body.secret,
      rawBody: body.body,
      headers: body.headers,
      now: body.received_at === undefined ? undefined : new Date(body.received_at),
    });
  }
}
