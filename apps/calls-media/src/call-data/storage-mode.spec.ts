import type { CallAnalysisView } from '@switchboard/contracts';
import { contentToStore, keepsRecording, type CallContent } from './storage-mode';

const analysis: CallAnalysisView = {
  summary: 'Jane (jane@example.com) asked for a callback at 415-555-0142.',
  sentiment: 'negative',
  successful: false,
  custom: { callback_number: '+14155550142', party_size: 4, vip: true, note: 'none' },
};
const content: CallContent = {
  transcript: [
    { role: 'agent', text: 'How can I help?' },
    { role: 'caller', text: 'My card is 4111 1111 1111 1111 and I live at 1234 Main Street.' },
  ],
  analysis,
};

describe('contentToStore', () => {
  it('keeps everything as given in `everything`', () => {
    expect(contentToStore('everything', content)).toBe(content);
  });

  it('redacts the turns, the summary and the custom text values in `no_pii`, keeping the flags', () => {
    expect(contentToStore('no_pii', content)).toEqual({
      transcript: [
        { role: 'agent', text: 'How can I help?' },
        { role: 'caller', text: 'My card is [redacted:card] and I live at [redacted:address].' },
      ],
      analysis: {
        summary: 'Jane ([redacted:email]) asked for a callback at [redacted:phone].',
        sentiment: 'negative',
        successful: false,
        custom: { callback_number: '[redacted:phone]', party_size: 4, vip: true, note: 'none' },
      },
    });
  });

  it('keeps no words in `metadata_only`: no transcript, no summary, no custom values, the flags alone', () => {
    expect(contentToStore('metadata_only', content)).toEqual({
      transcript: null,
      analysis: { summary: null, sentiment: 'negative', successful: false, custom: {} },
    });
  });

  it('leaves a missing transcript and summary missing', () => {
    const empty: CallContent = { transcript: null, analysis: { ...analysis, summary: null, custom: {} } };
    expect(contentToStore('no_pii', empty)).toEqual(empty);
  });
});

describe('keepsRecording', () => {
  it.each([
    ['everything', true],
    ['no_pii', false],
    ['metadata_only', false],
  ] as const)('%s: %s', (mode, kept) => {
    expect(keepsRecording(mode)).toBe(kept);
  });
});
