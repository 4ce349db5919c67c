import { CONSOLE_CSP, classifyConsolePath } from './console-static';

describe('console static paths', () => {
  const dist = '/srv/console/dist';

  it('serves index.html for the root and for client routes', () => {
    for (const path of [
      '/console/',
      '/console',
      '/console/index.html',
      '/console/accept-invite',
      '/console/keys/key_1',
      '/console/calls/CA12',
    ]) {
      expect(classifyConsolePath(dist, path)).toEqual({ kind: 'page' });
    }
  });

  it('serves files of the build, assets and names with an extension', () => {
    expect(classifyConsolePath(dist, '/console/assets/index-3f2a1b.js')).toEqual({
      kind: 'file',
      file: '/srv/console/dist/assets/index-3f2a1b.js',
    });
    expect(classifyConsolePath(dist, '/console/favicon.svg')).toEqual({
      kind: 'file',
      file: '/srv/console/dist/favicon.svg',
    });
    expect(classifyConsolePath(dist, '/console/assets/no-extension')).toEqual({
      kind: 'file',
      file: '/srv/console/dist/assets/no-extension',
    });
  });

  it('leaves /console/api/* to the API, never the page', () => {
    expect(classifyConsolePath(dist, '/console/api/unknown')).toEqual({ kind: 'api' });
    expect(classifyConsolePath(dist, '/console/api')).toEqual({ kind: 'api' });
  });

  it('never names a file outside the directory', () => {
    for (const path of [
      '/console/../secret.txt',
      '/console/assets/../../etc/passwd',
      '/console/%2e%2e/%2e%2e/etc/passwd',
      '/console/a%00.js',
      '/console/%E0%A4%A',
      '/console/..%5c..%5cwin.ini',
      '/console/./x.js',
    ]) {
      expect(classifyConsolePath(dist, path)).toEqual({ kind: 'not_found' });
    }
  });

  it('keeps pages to their own origin, with no inline script', () => {
    expect(CONSOLE_CSP).toContain("default-src 'self'");
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).not.toContain('unsafe-inline');
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
  });
});
