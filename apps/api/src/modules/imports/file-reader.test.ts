import { describe, expect, it } from 'vitest';
import { FileProblem, MAX_XML_RUN, runAfter } from './file-reader.js';

describe('the longest run of XML text a sheet may have', () => {
  const refused = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e instanceof FileProblem ? e.kind : e;
    }
    return 'read';
  };

  it('counts the text open at the end of each chunk, across chunks', () => {
    expect(runAfter(0, '<c><t>abc')).toBe(3);
    expect(runAfter(3, 'def</t>')).toBe(0);
    expect(runAfter(0, 'sin etiquetas')).toBe(13);
    expect(runAfter(10, '>')).toBe(0);
  });

  it('allows a run of exactly the limit and refuses one character more, split or whole', () => {
    const half = 'A'.repeat(MAX_XML_RUN / 2);
    expect(refused(() => runAfter(runAfter(0, `<t>${half}`), `${half}</t>`))).toBe('read');
    expect(refused(() => runAfter(runAfter(0, `<t>${half}`), `${half}A</t>`))).toBe('cellTooLong');
    expect(refused(() => runAfter(MAX_XML_RUN, 'A'))).toBe('cellTooLong');
    // A chunk longer than the limit is searched through, not only at its ends.
    const inside = `<a>${'A'.repeat(MAX_XML_RUN + 1)}</a>`;
    expect(refused(() => runAfter(0, inside))).toBe('cellTooLong');
    expect(refused(() => runAfter(0, `<a>${'A'.repeat(MAX_XML_RUN)}</a>`))).toBe('read');
  });
});
