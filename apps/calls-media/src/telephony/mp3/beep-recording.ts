/**
 * The simulated provider's recordings (docs/adr/0121-calls-and-recordings.md): real MP3 (MPEG-1 Layer III,
 * 32 kbit/s, 48 kHz, mono, no CRC; 96-byte frames of 24 ms each) made of two fixed frames, ~0.5 s of tone then
 * ~0.5 s of silence, repeated for the call's length. The two frames were written once by hand from ISO/IEC 11172-3;
 * a real decoder checks them in beep-recording.int-spec.ts, so no encoder is kept.
 */
export const MP3_SAMPLE_RATE = 48_000;
export const MP3_SAMPLES_PER_FRAME = 1152;
/** 144 * 32 kbit/s / 48 kHz: exact, so no frame ever needs a padding slot. */
export const MP3_FRAME_BYTES = 96;

/** Header: sync, MPEG-1, Layer III, no CRC, 32 kbit/s, 48 kHz, no padding, single channel, original. */
const HEADER = 'fffb14c4';
/**
 * Side information for both granules: main data right after it, long blocks, Huffman table 1 everywhere,
 * part2_3_length 8 bits, big_values 6, global gain 196 (about -21 dBFS); then each granule's main data, 0xfa: five
 * (0,0) pairs coded "1", the pair (1,0) coded "01" and a "0" sign bit. One quantized value at spectral line 10,
 * heard near 437 Hz.
 */
const TONE_SIDE_INFO_AND_MAIN_DATA = '000000200d88008420000401b100108400' + 'fafa';

function frame(hex: string): Buffer {
  const bytes = Buffer.alloc(MP3_FRAME_BYTES);
  Buffer.from(hex, 'hex').copy(bytes);
  return bytes;
}

/** All-zero side information: no scale factors, no Huffman data, global gain 0: two silent granules. */
export const SILENT_FRAME = frame(HEADER);
export const TONE_FRAME = frame(HEADER + TONE_SIDE_INFO_AND_MAIN_DATA);
/** 21 frames of each: 0.504 s of tone, 0.504 s of silence. */
export const FRAMES_PER_BEEP = 21;

/** How many frames cover `seconds` of audio (rounded up; at least one). */
export function framesFor(seconds: number): number {
  return Math.max(1, Math.ceil((seconds * MP3_SAMPLE_RATE) / MP3_SAMPLES_PER_FRAME));
}

/** A complete MP3 stream of beeps and silences lasting `durationSec` seconds (rounded up to a whole frame). */
export function beepRecordingMp3(durationSec: number): Buffer {
  const count = framesFor(durationSec);
  const out = Buffer.alloc(count * MP3_FRAME_BYTES);
  for (let i = 0; i < count; i++) {
    (i % (2 * FRAMES_PER_BEEP) < FRAMES_PER_BEEP ? TONE_FRAME : SILENT_FRAME).copy(out, i * MP3_FRAME_BYTES);
  }
  return out;
}
