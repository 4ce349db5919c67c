import { encodeBeepMp3, framesFor, silentFrame, toneFrame } from './mp3-encoder';

/**
 * An MPEG audio frame reader written from ISO/IEC 11172-3 for this test, independent of the encoder: it walks the
 * stream frame by frame using only what each header says, and reads the side information and the Huffman data
 * (table 1) of single-channel Layer III frames.
 */
const MPEG1_LAYER3_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MPEG1_SAMPLE_RATES = [44_100, 48_000, 32_000];

interface ParsedFrame {
  offset: number;
  length: number;
  bitrate: number;
  sampleRate: number;
  mono: boolean;
  crc: boolean;
  granules: { part23Length: number; bigValues: number; globalGain: number; windowSwitching: boolean; tables: number[] }[];
  mainDataBegin: number;
}

class BitReader {
  private position = 0;
  constructor(private readonly bytes: Uint8Array) {}
  read(width: number): number {
    let value = 0;
    for (let i = 0; i < width; i++) {
      const byte = this.bytes[this.position >> 3];
      value = (value << 1) | ((byte >> (7 - (this.position & 7))) & 1);
      this.position++;
    }
    return value;
  }
  get bitPosition(): number {
    return this.position;
  }
}

function parseFrames(stream: Uint8Array): ParsedFrame[] {
  const frames: ParsedFrame[] = [];
  let offset = 0;
  while (offset < stream.length) {
    const h = new BitReader(stream.subarray(offset, offset + 4));
    if (h.read(11) !== 0x7ff) throw new Error(`no frame sync at byte ${offset}`);
    const version = h.read(2);
    const layer = h.read(2);
    const crc = h.read(1) === 0;
    const bitrateIndex = h.read(4);
    const rateIndex = h.read(2);
    const padding = h.read(1);
    h.read(1); // private
    const channelMode = h.read(2);
    if (version !== 0b11) throw new Error(`frame at ${offset} is not MPEG-1`);
    if (layer !== 0b01) throw new Error(`frame at ${offset} is not Layer III`);
    if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) throw new Error(`frame at ${offset} has a reserved field`);
    const bitrate = MPEG1_LAYER3_KBPS[bitrateIndex] * 1000;
    const sampleRate = MPEG1_SAMPLE_RATES[rateIndex];
    const length = Math.floor((144 * bitrate) / sampleRate) + padding;
    if (offset + length > stream.length) throw new Error(`frame at ${offset} is cut short`);
    const side = new BitReader(stream.subarray(offset + 4 + (crc ? 2 : 0)));
    const mainDataBegin = side.read(9);
    side.read(5 + 4); // private bits, scfsi (one channel)
    const granules = [0, 1].map(() => {
      const part23Length = side.read(12);
      const bigValues = side.read(9);
      const globalGain = side.read(8);
      side.read(4);
      const windowSwitching = side.read(1) === 1;
      const tables = windowSwitching ? [] : [side.read(5), side.read(5), side.read(5)];
      side.read(windowSwitching ? 22 - 1 : 7);
      side.read(3);
      return { part23Length, bigValues, globalGain, windowSwitching, tables };
    });
    frames.push({ offset, length, bitrate, sampleRate, mono: channelMode === 0b11, crc, granules, mainDataBegin });
    offset += length;
  }
  return frames;
}

/** Decodes one granule's big-values region coded with Huffman table 1; returns the non-zero lines. */
function decodeTable1(reader: BitReader, pairs: number): Map<number, number> {
  const lines = new Map<number, number>();
  for (let pair = 0; pair < pairs; pair++) {
    let x = 0;
    let y = 0;
    if (reader.read(1) === 0) {
      if (reader.read(1) === 1) x = 1;
      else if (reader.read(1) === 1) y = 1;
      else [x, y] = [1, 1];
    }
    if (x) lines.set(2 * pair, reader.read(1) ? -1 : 1);
    if (y) lines.set(2 * pair + 1, reader.read(1) ? -1 : 1);
  }
  return lines;
}

describe('encodeBeepMp3', () => {
  it('writes only whole, valid MPEG-1 Layer III frames: 32 kbit/s, 48 kHz, mono, no CRC', () => {
    const mp3 = encodeBeepMp3({ durationSec: 3 });
    const frames = parseFrames(mp3);
    expect(frames.length).toBe(framesFor(3));
    for (const frame of frames) {
      expect(frame).toMatchObject({ length: 96, bitrate: 32_000, sampleRate: 48_000, mono: true, crc: false, mainDataBegin: 0 });
    }
  });

  it('covers the duration of the call, rounded up to whole frames of 24 ms', () => {
    expect(parseFrames(encodeBeepMp3({ durationSec: 60 })).length).toBe(2500);
    expect(parseFrames(encodeBeepMp3({ durationSec: 0 })).length).toBe(1);
  });

  it('alternates frames of tone and frames of silence', () => {
    const frames = parseFrames(encodeBeepMp3({ durationSec: 1, onFrames: 2, offFrames: 3 }));
    const sounding = frames.map((frame) => frame.granules[0].bigValues > 0);
    expect(sounding.slice(0, 10)).toEqual([true, true, false, false, false, true, true, false, false, false]);
  });

  it('codes the tone as one quantized value at the chosen spectral line, within the frame', () => {
    const frame = toneFrame({ line: 20, globalGain: 190 });
    const [parsed] = parseFrames(frame);
    const main = new BitReader(frame.subarray(4 + 17));
    for (const granule of parsed.granules) {
      expect(granule).toMatchObject({ windowSwitching: false, tables: [1, 1, 1], globalGain: 190, bigValues: 11 });
      const start = main.bitPosition;
      expect(decodeTable1(main, granule.bigValues)).toEqual(new Map([[20, 1]]));
      expect(main.bitPosition - start).toBe(granule.part23Length);
    }
    expect(main.bitPosition).toBeLessThanOrEqual((96 - 4 - 17) * 8);
  });

  it('writes silent frames with no Huffman data at all', () => {
    const [parsed] = parseFrames(silentFrame());
    expect(parsed.granules.map((g) => [g.part23Length, g.bigValues])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it('refuses a spectral line that cannot start a Huffman pair', () => {
    expect(() => toneFrame({ line: 11 })).toThrow(RangeError);
  });
});
