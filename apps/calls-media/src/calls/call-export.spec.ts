import type { CallView } from '@switchboard/contracts';
import { csvCell, csvHeader, exportIncludes, exportLine } from './call-export';

const call: CallView = {
  id: 'CA1',
  number_id: 'num_1',
  phone_number: '+14155550100',
  caller: '+14155550199',
  direction: 'inbound',
  status: 'completed',
  outcome: 'order_placed',
  duration_sec: 61,
  started_at: '2026-12-01T10:00:00.000Z',
  has_recording: true,
  has_transcript: true,
  analysis: { summary: 'Said "hi", then left', sentiment: 'positive', successful: null, custom: { size: 2 } },
  recording_deletion: null,
  transcript_deletion: null,
};

describe('csvCell', () => {
  it.each([
    ['plain', 'plain'],
    ['=SUM(A1:A2)', "'=SUM(A1:A2)"],
    ['+14155550199', "'+14155550199"],
    ['-5', "'-5"],
    ['@cmd', "'@cmd"],
    ['\tx', "'\tx"],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=1,2', '"\'=1,2"'],
    ['', ''],
  ])('%j is written %j', (value, written) => {
    expect(csvCell(value)).toBe(written);
  });

  it('writes numbers and booleans as they are, null as an empty cell', () => {
    expect([csvCell(-5), csvCell(true), csvCell(null), csvCell(undefined)]).toEqual(['-5', 'true', '', '']);
  });
});

describe('export lines', () => {
  it('writes the header of the call fields, then what include adds', () => {
    expect(csvHeader([])).toBe(
      'id,number_id,phone_number,caller,direction,status,outcome,duration_sec,started_at,has_recording,has_transcript\r\n',
    );
    expect(csvHeader(['analysis', 'transcript'])).toMatch(
      /,has_transcript,analysis_summary,analysis_sentiment,analysis_successful,analysis_custom,transcript\r\n$/,
    );
  });

  it('writes a CSV line with the analysis and the transcript as one cell each', () => {
    const line = exportLine('csv', ['analysis', 'transcript'], {
      call,
      transcript: [
        { role: 'agent', text: 'Hello' },
        { role: 'caller', text: 'Hi, bye' },
      ],
    });
    expect(line).toBe(
      "CA1,num_1,'+14155550100,'+14155550199,inbound,completed,order_placed,61,2026-12-01T10:00:00.000Z,true,true," +
        '"Said ""hi"", then left",positive,,"{""size"":2}","agent: Hello\ncaller: Hi, bye"\r\n',
    );
  });

  it('writes a JSON line of the call, without the analysis unless included', () => {
    const plain = JSON.parse(exportLine('jsonl', [], { call }));
    expect(plain).toEqual({
      ...call,
      analysis: undefined,
      recording_deletion: undefined,
      transcript_deletion: undefined,
    });
    expect(plain).not.toHaveProperty('analysis');
    const full = JSON.parse(exportLine('jsonl', ['analysis', 'transcript'], { call }));
    expect(full).toMatchObject({ analysis: call.analysis, transcript: [] });
  });

  it('reads include in a fixed order, once each', () => {
    expect(exportIncludes(undefined)).toEqual([]);
    expect(exportIncludes('transcript,analysis')).toEqual(['analysis', 'transcript']);
    expect(exportIncludes('analysis')).toEqual(['analysis']);
  });
});
