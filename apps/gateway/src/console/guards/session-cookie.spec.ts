import { newToken } from '../identity/secrets';
import { clearedSessionCookie, sessionCookie, sessionTokenOf } from './session-cookie';

describe('the console session cookie', () => {
  it('is HttpOnly, Secure, SameSite=Strict and scoped to /console, for 7 days', () => {
    const token = newToken();
    const cookie = sessionCookie(token);
    expect(cookie).toBe(`sb_session=${token}; Path=/console; HttpOnly; Secure; SameSite=Strict; Max-Age=604800`);
  });

  it('is cleared with the same attributes and Max-Age=0', () => {
    expect(clearedSessionCookie()).toBe('sb_session=; Path=/console; HttpOnly; Secure; SameSite=Strict; Max-Age=0');
  });

  it('is read from a Cookie header among others', () => {
    const token = newToken();
    expect(sessionTokenOf(`theme=dark; sb_session=${token}; other=1`)).toBe(token);
    expect(sessionTokenOf(`sb_session=${token}`)).toBe(token);
  });

  it('is ignored when missing, malformed, or sent twice', () => {
    expect(sessionTokenOf(undefined)).toBeUndefined();
    expect(sessionTokenOf('theme=dark')).toBeUndefined();
    expect(sessionTokenOf('sb_session=invented')).toBeUndefined();
    expect(sessionTokenOf(`sb_session=${newToken()}; sb_session=${newToken()}`)).toBeUndefined();
    expect(sessionTokenOf(`xsb_session=${newToken()}`)).toBeUndefined();
  });
});
