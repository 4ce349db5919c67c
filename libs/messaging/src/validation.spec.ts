import { IsInt, IsString, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { ServiceError } from '@switchboard/contracts';
import { validateMessage } from './validation';

class Inner {
  @IsInt() @Min(1) amount: number;
}
class Outer {
  @IsString() name: string;
  @ValidateNested() @Type(() => Inner) inner: Inner;
}

describe('validateMessage', () => {
  it('returns an instance of the class for a valid message', async () => {
    const value = await validateMessage(Outer, { name: 'a', inner: { amount: 2 } });
    expect(value).toBeInstanceOf(Outer);
    expect(value.inner).toBeInstanceOf(Inner);
  });

  it('refuses unknown fields, wrong types and non-objects with invalid_request naming the field', async () => {
    await expect(validateMessage(Outer, { name: 'a', inner: { amount: 2 }, extra: 1 })).rejects.toThrow(
      'extra is not a known field',
    );
    await expect(validateMessage(Outer, { name: 'a', inner: { amount: 0 } })).rejects.toThrow(
      'inner.amount must be at least 1',
    );
    await expect(validateMessage(Outer, [])).rejects.toBeInstanceOf(ServiceError);
    await expect(validateMessage(Outer, null)).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('words its problems as the HTTP edge does: a missing field is required, a wrong type named before a range', async () => {
    await expect(validateMessage(Outer, { inner: {} })).rejects.toMatchObject({
      code: 'invalid_request',
      message: 'name is required; inner.amount is required',
    });
    await expect(validateMessage(Outer, { name: 'a', inner: { amount: 'many' } })).rejects.toMatchObject({
      message: 'inner.amount must be an integer',
    });
  });
});
