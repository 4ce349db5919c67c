import { ServiceError } from '@switchboard/contracts';
import { formatNumberId, parseNumberId } from './number-id';

describe('number ids', () => {
  it('accepts num_<n> and the bare <n>', () => {
    expect(parseNumberId('num_42')).toBe(42n);
    expect(parseNumberId('42')).toBe(42n);
    expect(formatNumberId(42n)).toBe('num_42');
  });

  it('keeps ids beyond 2^53 exact', () => {
    expect(formatNumberId(parseNumberId('num_900719925474099312'))).toBe('num_900719925474099312');
  });

  it.each(['num_0', '0', 'num_', 'num_01', 'abc', 'num_1.5', '-1'])('refuses %p with invalid_request', (value) => {
    expect(() => parseNumberId(value)).toThrow(ServiceError);
  });
});
