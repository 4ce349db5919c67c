/**
 * A tiny MPEG-1 Layer III writer for the simulated provider's recordings: constant bit rate (32 kbit/s, 48 kHz,
 * mono), every frame complete and valid (header, side information, Huffman-coded main data), so any player
 * decodes it. It does not encode arbitrary audio: each granule holds at most one spectral line, which decodes to
 * a steady tone, so the recording is a pattern of beeps and silence as long as the call. No dependency, no
 * psychoacoustics (docs/adr/0024-simulated-recordings.md).
 */

export const MP3_SAMPLE_RATE = 48_000;
export const MP3_BITRATE = 32_000;
export const MP3_SAMPLES_PER_FRAME = 1152;
/** 144 * bitrate / sample rate: 96 bytes, exact at 48 kHz, so no padding slot is ever needed. */
export const MP3_FRAME_BYTES = (144 * MP3_BITRATE) / MP3_SAMPLE_RATE;
const SIDE_INFO_BYTES = 17; // MPEG-1, single channel
const HEADER_BYTES = 4;

/**
 * Header: sync, MPEG-1 (11), Layer III (01), no CRC (1); bitrate index 1 (32 kbit/s), 48 kHz (01), no padding;
 * single channel (11), original (1).
 */
const FRAME_HEADER = [0xff, 0xfb, 0x14, 0xc4] as const;

export interface ToneOptions {
  /**
   * The spectral line (0-575) that sounds; line k is heard near (k + 0.5) * 48000 / 1152 Hz. Must be even (it is
   * the first value of a Huffman pair). Default 10: ~437 Hz.
   */
  line?: number;
  /** Quantizer gain (0-255); each step of 4 doubles the amplitude (+6 dB); 210 is full scale. Default 196: ~-21 dBFS. */
  globalGain?: number;
}

export interface BeepPattern extends ToneOptions {
  /** Length of the recording in seconds (at least one frame is written). */
  durationSec: number;
  /** Frames of tone, then frames of silence, repeated. Default 21 and 21 (~0.5 s each). */
  onFrames?: number;
  offFrames?: number;
}

/** How many frames cover `seconds` of audio (rounded up; at least one). */
export function framesFor(seconds: number): number {
  return Math.max(1, Math.ceil((seconds * MP3_SAMPLE_RATE) / MP3_SAMPLES_PER_FRAME));
}

/** A complete MP3 stream: beeps and silences for `durationSec` seconds. */
export function encodeBeepMp3(pattern: BeepPattern): Buffer {
  const count = framesFor(pattern.durationSec);
  const onFrames = pattern.onFrames ?? 21;
  const offFrames = pattern.offFrames ?? 21;
  const tone = toneFrame(pattern);
  const silence = silentFrame();
  const out = Buffer.alloc(count * MP3_FRAME_BYTES);
  for (let i = 0; i < count; i++) {
    const frame = i % (onFrames + offFrames) < onFrames ? tone : silence;
    frame.copy(out, i * MP3_FRAME_BYTES);
  }
  return out;
}

/** One frame whose two granules decode to silence. */
export function silentFrame(): Buffer {
  const frame = Buffer.alloc(MP3_FRAME_BYTES);
  frame.set(FRAME_HEADER, 0);
  // All-zero side information: main_data_begin 0, no scale factors, no Huffman data, global gain 0.
  return frame;
}

/** One frame whose two granules each hold a single quantized value 1 at `line`: a tone. */
export function toneFrame(options: ToneOptions = {}): Buffer {
  const line = options.line ?? 10;
  const globalGain = options.globalGain ?? 196;
  if (!Number.isInteger(line) || line < 0 || line > 574 || line % 2 !== 0) throw new RangeError('line must be an even integer in 0..574');
  if (!Number.isInteger(globalGain) || globalGain < 0 || globalGain > 255) throw new RangeError('globalGain must be an integer in 0..255');

  // Main data of one granule, Huffman table 1 (pairs of values 0..1): the pairs before `line` are (0,0), coded
  // "1"; the pair at `line` is (1,0), coded "01", then the sign bit of the 1 ("0": positive).
  const pairs = line / 2 + 1;
  const granule = new BitWriter();
  for (let i = 0; i < pairs - 1; i++) granule.write(1, 1);
  granule.write(0b01, 2);
  granule.write(0, 1);
  const granuleBits = granule.bitLength;

  const side = new BitWriter();
  side.write(0, 9); // main_data_begin: the main data starts right after the side information
  side.write(0, 5); // private_bits
  side.write(0, 4); // scfsi
  for (let gr = 0; gr < 2; gr++) {
    side.write(granuleBits, 12); // part2_3_length: no scale factor bits (scalefac_compress 0) + Huffman bits
    side.write(pairs, 9); // big_values
    side.write(globalGain, 8);
    side.write(0, 4); // scalefac_compress
    side.write(0, 1); // window_switching_flag: long blocks
    side.write(1, 5); // table_select[0]
    side.write(1, 5); // table_select[1]
    side.write(1, 5); // table_select[2]
    side.write(0, 4); // region0_count
    side.write(0, 3); // region1_count
    side.write(0, 1); // preflag
    side.write(0, 1); // scalefac_scale
    side.write(0, 1); // count1table_select
  }
  const sideBytes = side.toBuffer();
  if (sideBytes.length !== SIDE_INFO_BYTES) throw new Error('side information must be 17 bytes');

  const main = new BitWriter();
  for (let gr = 0; gr < 2; gr++) {
    for (let i = 0; i < pairs - 1; i++) main.write(1, 1);
    main.write(0b01, 2);
    main.write(0, 1);
  }
  const mainBytes = main.toBuffer();
  if (mainBytes.length > MP3_FRAME_BYTES - HEADER_BYTES - SIDE_INFO_BYTES) throw new Error('main data does not fit in the frame');

  const frame = Buffer.alloc(MP3_FRAME_BYTES);
  frame.set(FRAME_HEADER, 0);
  sideBytes.copy(frame, HEADER_BYTES);
  mainBytes.copy(frame, HEADER_BYTES + SIDE_INFO_BYTES);
  return frame;
}

/** Most significant bit first, as MPEG audio is written. */
class BitWriter {
  private readonly bits: number[] = [];

  get bitLength(): number {
    return this.bits.length;
  }

  write(value: number, width: number): void {
    for (let i = width - 1; i >= 0; i--) this.bits.push((value >>> i) & 1);
  }

  toBuffer(): Buffer {
    const out = Buffer.alloc(Math.ceil(this.bits.length / 8));
    this.bits.forEach((bit, i) => {
      if (bit) out[i >> 3] |= 0x80 >> (i & 7);
    });
    return out;
  }
}
