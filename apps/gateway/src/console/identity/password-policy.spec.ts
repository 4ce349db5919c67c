import { MIN_PASSWORD_LENGTH, passwordProblem } from './password-policy';

describe('the console password policy', () => {
  const email = 'jane.doe@example.com';

  it('accepts long, unremarkable passwords, spaces and any script included', () => {
    for (const password of [
      'correct horse battery',
      'tR0mb0ne-Sunset-42',
      'Ünïcödé paßwort grün',
      'x'.repeat(5) + 'abcdefgh7',
    ]) {
      expect(passwordProblem(password, email)).toBeUndefined();
    }
  });

  it(`refuses fewer than ${MIN_PASSWORD_LENGTH} characters, counting characters rather than bytes`, () => {
    expect(passwordProblem('Sh0rt-pass', email)).toMatch(/^password must be at least 12 characters/);
    expect(passwordProblem('ééééééééééé', email)).toMatch(/at least 12/);
    expect(passwordProblem('   short    ', email)).toMatch(/besides spaces/);
  });

  it('refuses more than 256 characters before any hashing', () => {
    expect(passwordProblem('a1b2c3d4'.repeat(33), email)).toBe('password must be at most 256 characters');
  });

  it('refuses common passwords, repeated characters and sequences, saying why', () => {
    expect(passwordProblem('password1234', email)).toMatch(/most common/);
    expect(passwordProblem('Switchboard123!', email)).toMatch(/most common/);
    expect(passwordProblem('aaaaaaaaaaaaaaaa', email)).toMatch(/too few different characters/);
    expect(passwordProblem('abababababab', email)).toMatch(/too few different characters/);
    expect(passwordProblem('abcdefghijklmn', email)).toMatch(/sequence/);
    expect(passwordProblem('09876543210', email)).toMatch(/at least 12/);
    expect(passwordProblem('qwertyuiopasd', email)).toMatch(/sequence/);
  });

  it('refuses the email address or its name part', () => {
    expect(passwordProblem('jane.doe@example.com', email)).toMatch(/email address/);
    expect(passwordProblem('my jane.doe secret', email)).toMatch(/email address/);
  });

  it('names the field first, as every 400 does', () => {
    expect(passwordProblem('short', email)?.split(' ')[0]).toBe('password');
  });
});
