import {
  FRAMES_PER_BEEP,
  MP3_FRAME_BYTES,
  SILENT_FRAME,
  TONE_FRAME,
  beepRecordingMp3,
  framesFor,
} from './beep-recording';

describe('beepRecordingMp3', () => {
  it('covers the call with whole 24 ms frames, at least one', () => {
    expect(framesFor(0)).toBe(1);
    expect(framesFor(1)).toBe(42); // 41.67 frames, rounded up
    expect(framesFor(12)).toBe(500);
    expect(beepRecordingMp3(12)).toHaveLength(500 * MP3_FRAME_BYTES);
    expect(beepRecordingMp3(0)).toHaveLength(MP3_FRAME_BYTES);
  });

  it('alternates 21 tone frames and 21 silent frames, starting with tone', () => {
    const stream = beepRecordingMp3(3);
    const kinds = Array.from({ length: stream.length / MP3_FRAME_BYTES }, (_, i) => {
      const frame = stream.subarray(i * MP3_FRAME_BYTES, (i + 1) * MP3_FRAME_BYTES);
      if (frame.equals(TONE_FRAME)) return 'tone';
      if (frame.equals(SILENT_FRAME)) return 'silence';
      return 'other';
    });
    expect(kinds).not.toContain('other');
    expect(kinds.slice(0, FRAMES_PER_BEEP).every((kind) => kind === 'tone')).toBe(true);
    expect(kinds.slice(FRAMES_PER_BEEP, 2 * FRAMES_PER_BEEP).every((kind) => kind === 'silence')).toBe(true);
    expect(kinds[2 * FRAMES_PER_BEEP]).toBe('tone');
  });

  it('writes MPEG-1 Layer III frame headers: 32 kbit/s, 48 kHz, mono, no CRC, no padding', () => {
    for (const frame of [TONE_FRAME, SILENT_FRAME]) {
      expect(frame.subarray(0, 4).toString('hex')).toBe('fffb14c4');
      expect(frame).toHaveLength(96);
    }
  });
});
