import { MPEGDecoder } from 'mpg123-decoder';
import { FRAMES_PER_BEEP, MP3_SAMPLES_PER_FRAME, beepRecordingMp3 } from '../src/telephony/mp3/beep-recording';

/** Level in dBFS of a run of samples: the peak, and the root mean square. */
function levels(samples: Float32Array): { peakDb: number; rmsDb: number } {
  let peak = 0;
  let squares = 0;
  for (const sample of samples) {
    peak = Math.max(peak, Math.abs(sample));
    squares += sample * sample;
  }
  return { peakDb: 20 * Math.log10(peak || 1e-12), rmsDb: 10 * Math.log10(squares / samples.length || 1e-24) };
}

/** Zero crossings per second: twice the frequency of a steady tone. */
function crossingsPerSecond(samples: Float32Array, sampleRate: number): number {
  let crossings = 0;
  for (let i = 1; i < samples.length; i++) if (samples[i - 1] < 0 !== samples[i] < 0) crossings++;
  return crossings / (samples.length / sampleRate);
}

// mpg123 (compiled to WebAssembly, inside the npm package): a real, widely used MP3 decoder, so this check runs
// everywhere `npm test` runs, with nothing to install.
describe('a simulated recording, as mpg123 decodes it', () => {
  const seconds = 12;
  let decoded: { channelData: Float32Array[]; samplesDecoded: number; sampleRate: number; errors: unknown[] };

  beforeAll(async () => {
    const decoder = new MPEGDecoder();
    await decoder.ready;
    decoded = decoder.decode(new Uint8Array(beepRecordingMp3(seconds)));
    decoder.free();
  });

  it('decodes without an error into 48 kHz audio lasting the call', () => {
    expect(decoded.errors).toEqual([]);
    expect(decoded.sampleRate).toBe(48_000);
    expect(Math.abs(decoded.samplesDecoded / decoded.sampleRate - seconds)).toBeLessThan(0.05);
  });

  it('sounds a ~437 Hz tone at about -21 dBFS in its tone frames', () => {
    // Skip the first frame: the decoder's overlap-add starts from nothing.
    const tone = decoded.channelData[0].subarray(MP3_SAMPLES_PER_FRAME, FRAMES_PER_BEEP * MP3_SAMPLES_PER_FRAME);
    const { peakDb, rmsDb } = levels(tone);
    expect(peakDb).toBeGreaterThan(-30);
    expect(peakDb).toBeLessThan(-6);
    expect(rmsDb).toBeGreaterThan(-40);
    const hz = crossingsPerSecond(tone, decoded.sampleRate) / 2;
    expect(hz).toBeGreaterThan(380);
    expect(hz).toBeLessThan(500);
  });

  it('is silent in its silent frames', () => {
    // The first silent frame still carries the tone's overlap; the rest are silence.
    const silence = decoded.channelData[0].subarray(
      (FRAMES_PER_BEEP + 1) * MP3_SAMPLES_PER_FRAME,
      2 * FRAMES_PER_BEEP * MP3_SAMPLES_PER_FRAME,
    );
    expect(levels(silence).peakDb).toBeLessThan(-90);
  });
});
