import { splitMatch, unescapeHtml } from './match';

describe("a search result's match snippet, as the calls page shows it", () => {
  it('splits the marked words from the text around them', () => {
    expect(splitMatch('Do you have a <mark>gluten</mark>-<mark>free</mark> crust?')).toEqual([
      { text: 'Do you have a ', marked: false },
      { text: 'gluten', marked: true },
      { text: '-', marked: false },
      { text: 'free', marked: true },
      { text: ' crust?', marked: false },
    ]);
    expect(splitMatch('<mark>Pizza</mark> Planet')).toEqual([
      { text: 'Pizza', marked: true },
      { text: ' Planet', marked: false },
    ]);
    expect(splitMatch('no highlight at all')).toEqual([{ text: 'no highlight at all', marked: false }]);
    expect(splitMatch('')).toEqual([]);
  });

  it('un-escapes the five entities the server writes, in each run', () => {
    expect(splitMatch('Tom &amp; Jerry&#39;s &quot;<mark>large</mark>&quot; 2 &lt; 3 &gt; 1')).toEqual([
      { text: 'Tom & Jerry\'s "', marked: false },
      { text: 'large', marked: true },
      { text: '" 2 < 3 > 1', marked: false },
    ]);
    expect(splitMatch('<mark>R&amp;D</mark>')).toEqual([{ text: 'R&D', marked: true }]);
  });

  it('keeps markup a caller said as text: only the real markers highlight', () => {
    // The caller said "<mark>x</mark> <b>y</b>": the server escaped it, so it is words, not a highlight or a tag.
    expect(splitMatch('said &lt;mark&gt;x&lt;/mark&gt; &lt;b&gt;<mark>y</mark>&lt;/b&gt;')).toEqual([
      { text: 'said <mark>x</mark> <b>', marked: false },
      { text: 'y', marked: true },
      { text: '</b>', marked: false },
    ]);
    // Un-escaped once only: `&amp;lt;` is the text `&lt;`, never `<`.
    expect(unescapeHtml('&amp;lt;script&amp;gt;')).toBe('&lt;script&gt;');
    expect(unescapeHtml('&amp;lt;')).toBe('&lt;');
    expect(unescapeHtml('&nbsp; &#60; &unknown;')).toBe('&nbsp; &#60; &unknown;');
  });

  it('copes with stray, repeated or unclosed markers without losing text', () => {
    expect(splitMatch('a </mark>b <mark>c <mark>d</mark> e')).toEqual([
      { text: 'a b ', marked: false },
      { text: 'c d', marked: true },
      { text: ' e', marked: false },
    ]);
    expect(splitMatch('ends <mark>open')).toEqual([
      { text: 'ends ', marked: false },
      { text: 'open', marked: true },
    ]);
    expect(splitMatch('<mark></mark>')).toEqual([]);
  });
});
