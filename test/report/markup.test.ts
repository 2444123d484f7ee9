import { describe, expect, it } from 'vitest';
import { escapeMarkup, html, raw } from '../../report/markup.ts';

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
