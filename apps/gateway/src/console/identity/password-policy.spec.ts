import { MIN_PASSWORD_LENGTH, passwordProblem, personalWords, type PasswordOwner } from './password-policy';

describe('the console password policy', () => {
  const owner: PasswordOwner = { email: 'jane.doe@example.com', accountName: 'Twin Tacos' };
  const tooEasy = /^password is too easy to guess\. \S/;

  it('accepts long, unremarkable passwords and passphrases, spaces and any script included', async () => {
    for (const password of [
      'quiet otter builds paper maps',
      'tR0mb0ne-Sunset-42',
      'Ünïcödé paßwort grün',
      'violet marsh ladder 1907',
      'kq8#Vz2!mWp4@Lr9',
      'plum tuesday lantern 42',
      'harbour lights at midnight',
      'violet kettle orbits quietly',
    ]) {
      expect({ password, problem: await passwordProblem(password, owner) }).toEqual({ password, problem: undefined });
    }
  });

  it(`refuses fewer than ${MIN_PASSWORD_LENGTH} characters, counting characters rather than bytes`, async () => {
    expect(await passwordProblem('Sh0rt-pass', owner)).toMatch(/^password must be at least 12 characters/);
    expect(await passwordProblem('ééééééééééé', owner)).toMatch(/at least 12/);
    expect(await passwordProblem('   short    ', owner)).toMatch(/besides spaces/);
    expect(await passwordProblem('09876543210', owner)).toMatch(/at least 12/);
  });

  it('refuses more than 256 characters before any hashing', async () => {
    expect(await passwordProblem('a1b2c3d4'.repeat(33), owner)).toBe('password must be at most 256 characters');
  });

  it('refuses the seven weak passwords a hand-made list missed, saying why', async () => {
    for (const password of [
      'letmein12345!',
      'P@ssw0rd2024!',
      'iloveyou2024!',
      'Password123456',
      'Jennifer1985!',
      'welcome123456',
      'qwertyuiop123',
    ]) {
      expect({ password, problem: await passwordProblem(password, owner) }).toEqual({
        password,
        problem: expect.stringMatching(tooEasy),
      });
    }
    expect(await passwordProblem('P@ssw0rd2024!', owner)).toBe(
      "password is too easy to guess. This is similar to a commonly used password. Add more words that are less common. Capitalize more than the first letter. Avoid predictable letter substitutions like '@' for 'a'.",
    );
  });

  it('refuses a word with a year or digits and punctuation, and the published example passwords', async () => {
    for (const password of [
      'Summer2026!!!!',
      'welcome123456!',
      'correcthorsebatterystaple',
      'Tr0ub4dor&3xyz',
      // The same phrase with separators is the same guess.
      'correct horse battery staple',
      'Correct-Horse-Battery-Staple',
      'Autumn2027????',
    ]) {
      expect({ password, problem: await passwordProblem(password, owner) }).toEqual({
        password,
        problem: expect.stringMatching(tooEasy),
      });
    }
    expect(await passwordProblem('correcthorsebatterystaple', owner)).toMatch(/heavily used password/);
  });

  it("refuses a password from Mozilla's breached-password list that zxcvbn's own list misses", async () => {
    // 12 characters or more, in fxa-common-password-list, and 10^11.5 to 10^12.5 guesses (score 4) for zxcvbn-ts's
    // own dictionaries: 96 of the list's 741 such passwords are.
    for (const password of ['avadakedavra', 'dnepropetrovsk', '123reconect312']) {
      expect({ password, problem: await passwordProblem(password, owner) }).toEqual({
        password,
        problem: expect.stringMatching(tooEasy),
      });
    }
  });

  it('refuses repeated characters, sequences and the product name, with the estimator reason', async () => {
    expect(await passwordProblem('aaaaaaaaaaaaaaaa', owner)).toMatch(/^password is too easy to guess\. .*[Rr]epeat/);
    expect(await passwordProblem('abababababab', owner)).toMatch(/^password is too easy to guess\. .*[Rr]epeat/);
    expect(await passwordProblem('abcdefghijklmn', owner)).toMatch(/^password is too easy to guess\. .*[Ss]equence/);
    expect(await passwordProblem('qwertyuiopasd', owner)).toMatch(tooEasy);
    expect(await passwordProblem('Switchboard123!', owner)).toMatch(tooEasy);
  });

  it('refuses the email address or its name part', async () => {
    expect(await passwordProblem('jane.doe@example.com', owner)).toMatch(/email address/);
    expect(await passwordProblem('my jane.doe secret', owner)).toMatch(/email address/);
  });

  it("gives the estimator the user's own words: the address's parts, the account's name and the product's", async () => {
    // Without the account's name these score 4 (10^12.8 and 10^16.8 guesses).
    for (const password of ['TwinTacos2026!!', 'twin tacos console 1', 'switchboardjane2026']) {
      expect({ password, problem: await passwordProblem(password, owner) }).toEqual({
        password,
        problem: expect.stringMatching(tooEasy),
      });
    }
    expect(personalWords(owner)).toEqual(
      expect.arrayContaining(['jane.doe@example.com', 'jane.doe', 'jane', 'doe', 'example', 'twin tacos', 'twintacos']),
    );
    expect(personalWords(owner)).toEqual(expect.arrayContaining(['tacos', 'twin', 'switchboard', 'console']));
    // The same password is fine for someone whose words these are not.
    const stranger: PasswordOwner = { email: 'sam@elsewhere.example', accountName: 'Harbour Books' };
    expect(await passwordProblem('TwinTacos2026!!', stranger)).toBeUndefined();
  });

  it('names the field first and separates no problems with "; ", as every 400 the console reads does', async () => {
    for (const password of ['short', 'letmein12345!', 'aaaaaaaaaaaaaaaa', 'correct horse battery staple']) {
      const problem = await passwordProblem(password, owner);
      expect(problem?.split(' ')[0]).toBe('password');
      expect(problem).not.toContain('; ');
    }
  });
});
