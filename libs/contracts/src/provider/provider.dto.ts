import { ApiProperty } from '../common/api-property';
import { IsInt, Max, Min } from 'class-validator';
import { IsUsAreaCode } from '../common/phone';

/** Upper bound of operator-set counters, so a typo cannot overflow a column. */
const MAX_PROVIDER_COUNTER = 1_000_000;

export class AreaCodeParam {
  @IsUsAreaCode()
  area_code: string;
}

/** `PUT /admin/provider/stock/{area_code}` body. */
export class ProviderStockBody {
  @ApiProperty({
    minimum: 0,
    maximum: MAX_PROVIDER_COUNTER,
    description: 'How many numbers the simulated provider can still sell in the area code.',
  })
  @IsInt()
  @Min(0)
  @Max(MAX_PROVIDER_COUNTER)
  available: number;
}

export class SetProviderStockCommand extends ProviderStockBody {
  @IsUsAreaCode()
  area_code: string;
}

export class ProviderStockView {
  @ApiProperty({ example: '415' }) area_code: string;
  @ApiProperty() available: number;
}

/** `PUT /admin/provider/faults` body. */
export class ProviderFaultsBody {
  @ApiProperty({
    minimum: 0,
    maximum: MAX_PROVIDER_COUNTER,
    description: 'The next N purchases fail as a transient provider error.',
  })
  @IsInt()
  @Min(0)
  @Max(MAX_PROVIDER_COUNTER)
  provision_failures: number;
}

export class ProviderFaultsView {
  @ApiProperty() provision_failures: number;
}
