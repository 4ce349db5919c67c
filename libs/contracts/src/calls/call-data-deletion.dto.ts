import { ApiProperty } from '../common/api-property';

/** A deletion of a call's recording or transcript, on the call. */
export class CallDataDeletion {
  @ApiProperty({ format: 'date-time' }) deleted_at: string;
  @ApiProperty({
    example: 'retention',
    description: "`retention` (the account's retention period), `key:<api key id>` or `user:<console user id>`.",
  })
  deleted_by: string;
}
