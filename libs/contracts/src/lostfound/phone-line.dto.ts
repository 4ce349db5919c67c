import { ApiProperty } from '../common/api-property';
import { IsString, Matches } from 'class-validator';
import { NUMBER_ID_PATTERN } from '../numbers/number.dto';
import { LocationBody } from './found-item.dto';

/**
 * A number of the account linked to one of its locations as its lost-and-found line: a call on it that ends with
 * the outcome `lost_item_report` files a claim there (docs/adr/0079-lostfound-custody-claimant-page-and-phone-reports.md).
 */
export class PhoneLineBody extends LocationBody {}

export class LinkPhoneLineCommand extends PhoneLineBody {
  @IsString()
  @Matches(NUMBER_ID_PATTERN, { message: 'number_id must be a number id (num_<n>)' })
  number_id: string;
}

export class UnlinkPhoneLineCommand {
  @IsString()
  @Matches(NUMBER_ID_PATTERN, { message: 'number_id must be a number id (num_<n>)' })
  number_id: string;
}

export class PhoneLineView {
  @ApiProperty({ example: 'num_12' }) number_id: string;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The location whose lost-and-found line the number is; null when none.',
  })
  location_id: number | null;
}
