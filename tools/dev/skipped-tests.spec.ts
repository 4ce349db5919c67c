import { describeSkipped, NO_REASON, skippedTests } from './skipped-tests.mjs';

const root = '/repo';
const report = {
  testResults: [
    {
      name: '/repo/apps/calls-media/src/telephony/mp3/mp3-decoder.int-spec.ts',
      assertionResults: [
        {
          ancestorTitles: [
            'a simulated recording, as FFmpeg decodes it (skipped: ffprobe/ffmpeg not installed (apt-get install ffmpeg))',
          ],
          title: 'is an MP3 stream',
          status: 'pending',
        },
        {
          ancestorTitles: [
            'a simulated recording, as FFmpeg decodes it (skipped: ffprobe/ffmpeg not installed (apt-get install ffmpeg))',
          ],
          title: 'decodes without an error',
          status: 'pending',
        },
      ],
    },
    {
      name: '/repo/libs/signing/src/sign.spec.ts',
      assertionResults: [
        { ancestorTitles: ['signing'], title: 'signs', status: 'passed' },
        {
          ancestorTitles: ['signing (skipped: not on this machine)'],
          title: 'verifies with the old key (skipped: the old key is gone)',
          status: 'pending',
        },
        { ancestorTitles: ['signing'], title: 'rotates', status: 'pending' },
        { ancestorTitles: [], title: 'streams', status: 'todo' },
        { ancestorTitles: ['signing'], title: 'fails', status: 'failed' },
      ],
    },
  ],
};

describe("npm test's list of skipped tests", () => {
  it('gives each test that did not run the reason its own title or the innermost describe names, and leaves out tests that ran', () => {
    expect(skippedTests(report, root)).toEqual([
      {
        file: 'apps/calls-media/src/telephony/mp3/mp3-decoder.int-spec.ts',
        title: 'a simulated recording, as FFmpeg decodes it › is an MP3 stream',
        reason: 'ffprobe/ffmpeg not installed (apt-get install ffmpeg)',
      },
      {
        file: 'apps/calls-media/src/telephony/mp3/mp3-decoder.int-spec.ts',
        title: 'a simulated recording, as FFmpeg decodes it › decodes without an error',
        reason: 'ffprobe/ffmpeg not installed (apt-get install ffmpeg)',
      },
      {
        file: 'libs/signing/src/sign.spec.ts',
        title: 'signing › verifies with the old key',
        reason: 'the old key is gone',
      },
      { file: 'libs/signing/src/sign.spec.ts', title: 'signing › rotates', reason: NO_REASON },
      { file: 'libs/signing/src/sign.spec.ts', title: 'streams', reason: 'a todo: not written yet' },
    ]);
  });

  it('prints one line per file and reason, then the tests it covers', () => {
    expect(describeSkipped(skippedTests(report, root))).toEqual([
      '  apps/calls-media/src/telephony/mp3/mp3-decoder.int-spec.ts (2 tests): ffprobe/ffmpeg not installed (apt-get install ffmpeg)',
      '    a simulated recording, as FFmpeg decodes it › is an MP3 stream',
      '    a simulated recording, as FFmpeg decodes it › decodes without an error',
      '  libs/signing/src/sign.spec.ts (1 test): the old key is gone',
      '    signing › verifies with the old key',
      `  libs/signing/src/sign.spec.ts (1 test): ${NO_REASON}`,
      '    signing › rotates',
      '  libs/signing/src/sign.spec.ts (1 test): a todo: not written yet',
      '    streams',
    ]);
  });

  it('counts, under a name filter (-t), the tests that give no reason in one line instead of listing them', () => {
    expect(describeSkipped(skippedTests(report, root), { nameFilter: true })).toEqual([
      '  apps/calls-media/src/telephony/mp3/mp3-decoder.int-spec.ts (2 tests): ffprobe/ffmpeg not installed (apt-get install ffmpeg)',
      '    a simulated recording, as FFmpeg decodes it › is an MP3 stream',
      '    a simulated recording, as FFmpeg decodes it › decodes without an error',
      '  libs/signing/src/sign.spec.ts (1 test): the old key is gone',
      '    signing › verifies with the old key',
      '  libs/signing/src/sign.spec.ts (1 test): a todo: not written yet',
      '    streams',
      '  1 test left out by the name filter (-t)',
    ]);
  });
});
