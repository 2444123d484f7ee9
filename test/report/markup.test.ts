import { describe, expect, it } from 'vitest';
import { conformanceHtml } from '../../report/conformance-html.ts';
import { junitXml } from '../../report/junit.ts';
import { escapeMarkup, escapeTerminal, html, raw } from '../../report/markup.ts';
import { escapeForTerminal } from '../../report/terminal-text.ts';
import { sampleRecords, sampleReport } from './sample-report.ts';

describe('escapeMarkup', () => {
  it('escapes the five markup characters', () => {
    expect(escapeMarkup(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('drops characters XML 1.0 cannot carry and keeps tabs, newlines and astral characters', () => {
    expect(escapeMarkup('a\u0000b\u0008c\u001Fd\te\nf\uFFFE😀')).toBe('abcd\te\nf😀');
    expect(escapeMarkup('lone \uD800 surrogate')).toBe('lone  surrogate');
  });

  it('renders undefined and null as nothing', () => {
    expect(escapeMarkup(undefined)).toBe('');
    expect(escapeMarkup(null)).toBe('');
  });
});

describe('html``', () => {
  it('escapes interpolations, including inside arrays, and keeps raw() and nested templates', () => {
    const item = '<b>';
    expect(html`<p>${item}${[item, html`<i>${item}</i>`]}${raw('<hr>')}${false}${undefined}</p>`.value).toBe('<p>&lt;b&gt;&lt;b&gt;<i>&lt;b&gt;</i><hr></p>');
  });
});

describe('characters that reorder or hide text are shown, not applied', () => {
  // U+202E (right-to-left override), U+2066 (isolate), U+200B (zero width space), U+2060 (word joiner), U+FEFF
  const sneaky = 'TRIG-04 \u202Essap\u202C \u2066x\u2069 pa\u200Bss \u2060\uFEFF';
  const invisible = /[\u202E\u202C\u2066\u2069\u200B\u2060\uFEFF]|&#x(202e|202c|2066|2069|200b|2060|feff);/i;

  it('in conformance.html and junit.xml: as a visible \\u escape, never the character or a reference to it', () => {
    const records = sampleRecords();
    records[1]!.message = sneaky;
    const report = sampleReport(records);
    for (const artifact of [conformanceHtml(report), junitXml(report)]) {
      expect(artifact).not.toMatch(invisible);
      expect(artifact).toContain('TRIG-04 \\u202essap\\u202c \\u2066x\\u2069 pa\\u200bss \\u2060\\ufeff');
    }
  });

  it('on the terminal, through both escapers', () => {
    expect(escapeTerminal(sneaky)).toBe('TRIG-04 \\u202essap\\u202c \\u2066x\\u2069 pa\\u200bss \\u2060\\ufeff');
    expect(escapeForTerminal(sneaky)).toBe('TRIG-04 \\u202essap\\u202c \\u2066x\\u2069 pa\\u200bss \\u2060\\ufeff');
  });
});
