import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeBeepMp3 } from './mp3-encoder';

/**
 * The simulated recordings checked by a real decoder (FFmpeg's). Install it with `apt-get install ffmpeg`; without
 * it these tests are skipped, and the title says why, which `npm test` prints in its summary (tools/dev/skipped-tests.mjs).
 */
function has(tool: string): boolean {
  return spawnSync(tool, ['-version'], { stdio: 'ignore' }).status === 0;
}

const decoderPresent = has('ffprobe') && has('ffmpeg');
const describeWithDecoder = decoderPresent ? describe : describe.skip;
const skipReason = decoderPresent ? '' : ' (skipped: ffprobe/ffmpeg not installed; apt-get install ffmpeg)';

describeWithDecoder(`a simulated recording, as FFmpeg decodes it${skipReason}`, () => {
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sb-mp3-'));
    file = join(dir, 'call.mp3');
    await writeFile(file, encodeBeepMp3({ durationSec: 12 }));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is an MP3 stream of one 48 kHz channel lasting the call', () => {
    const probe = spawnSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,sample_rate,channels,duration', '-of', 'json', file], { encoding: 'utf8' });
    expect(probe.stderr).toBe('');
    const [stream] = JSON.parse(probe.stdout).streams;
    expect(stream).toMatchObject({ codec_name: 'mp3', sample_rate: '48000', channels: 1 });
    expect(Math.abs(Number(stream.duration) - 12)).toBeLessThan(0.05);
  });

  it('decodes without a single error into audible sound, not silence', () => {
    const decode = spawnSync('ffmpeg', ['-hide_banner', '-nostats', '-v', 'info', '-err_detect', 'explode', '-i', file, '-af', 'volumedetect', '-f', 'null', '-'], {
      encoding: 'utf8',
    });
    expect(decode.status).toBe(0);
    expect(decode.stderr).not.toMatch(/error|invalid|corrupt/i);
    const max = Number(/max_volume: (-?[\d.]+) dB/.exec(decode.stderr)?.[1]);
    const mean = Number(/mean_volume: (-?[\d.]+) dB/.exec(decode.stderr)?.[1]);
    expect(max).toBeGreaterThan(-30);
    expect(max).toBeLessThan(-6);
    expect(mean).toBeGreaterThan(-40);
  });
});
