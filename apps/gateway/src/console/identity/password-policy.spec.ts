import { MIN_PASSWORD_LENGTH, passwordProblem } from './password-policy';

describe('the console password policy', () => {
  const email = 'jane.doe@example.com';

  it('accepts long, unremarkable passwords and passphrases, spaces and any script included', async () => {
    for (const password of [
      'correct horse battery staple',
      'tR0mb0ne-Sunset-42',
      'Ünïcödé paßwort grün',
      'violet marsh ladder 1907',
      'kq8#Vz2!mWp4@Lr9',
    ]) {
      expect(await passwordProblem(password, email)).toBeUndefined();
    }
  });

  it(`refuses fewer than ${MIN_PASSWORD_LENGTH} characters, counting characters rather than bytes`, async () => {
    expect(await passwordProblem('Sh0rt-pass', email)).toMatch(/^password must be at least 12 characters/);
    expect(await passwordProblem('ééééééééééé', email)).toMatch(/at least 12/);
    expect(await passwordProblem('   short    ', email)).toMatch(/besides spaces/);
    expect(await passwordProblem('09876543210', email)).toMatch(/at least 12/);
  });

  it('refuses more than 256 characters before any hashing', async () => {
    expect(await passwordProblem('a1b2c3d4'.repeat(33), email)).toBe('password must be at most 256 characters');
  });

  it('refuses weak passwords of 12 characters or more that a hand-made list missed, saying why', async () => {
    for (const password of [
      'letmein12345!',
      'P@ssw0rd2024!',
      'iloveyou2024!',
      'Password123456',
      'Jennifer1985!',
      'welcome123456',
      'qwertyuiop123',
    ]) {
      expect(await passwordProblem(password, email)).toMatch(/^password is too easy to guess\. \S/);
    }
    expect(await passwordProblem('P@ssw0rd2024!', email)).toBe(
      "password is too easy to guess. This is similar to a commonly used password. Add more words that are less common. Capitalize more than the first letter. Avoid predictable letter substitutions like '@' for 'a'.",
    );
  });

  it('refuses repeated characters, sequences and the product name, with the estimator reason', async () => {
    expect(await passwordProblem('aaaaaaaaaaaaaaaa', email)).toMatch(/^password is too easy to guess\. .*[Rr]epeat/);
    expect(await passwordProblem('abababababab', email)).toMatch(/^password is too easy to guess\. .*[Rr]epeat/);
    expect(await passwordProblem('abcdefghijklmn', email)).toMatch(/^password is too easy to guess\. .*[Ss]equence/);
    expect(await passwordProblem('qwertyuiopasd', email)).toMatch(/^password is too easy to guess\./);
    expect(await passwordProblem('Switchboard123!', email)).toMatch(/^password is too easy to guess\./);
  });

  it('refuses the email address or its name part', async () => {
    expect(await passwordProblem('jane.doe@example.com', email)).toMatch(/email address/);
    expect(await passwordProblem('my jane.doe secret', email)).toMatch(/email address/);
    // The estimator knows the address's parts and the product's name as words a guesser tries first.
    expect(await passwordProblem('switchboardjane', email)).toMatch(/^password is too easy to guess\./);
  });

  it('names the field first and separates no problems with "; ", as every 400 the console reads does', async () => {
    for (const password of ['short', 'letmein12345!', 'aaaaaaaaaaaaaaaa']) {
      const problem = await passwordProblem(password, email);
      expect(problem?.split(' ')[0]).toBe('password');
      expect(problem).not.toContain('; ');
    }
  });
});
