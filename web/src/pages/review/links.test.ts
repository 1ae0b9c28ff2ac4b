import { describe, expect, it } from 'vitest';
import { webHref } from './links';

describe('webHref', () => {
  it('keeps web addresses', () => {
    expect(webHref(' https://github.com/ada ')).toBe('https://github.com/ada');
    expect(webHref('http://ada.dev/')).toBe('http://ada.dev/');
  });
  it('refuses anything else', () => {
    for (const s of [null, undefined, '', '  ', 'javascript:alert(1)', 'data:text/html,x', 'github.com/ada', 'ftp://x.org']) {
      expect(webHref(s)).toBeNull();
    }
  });
});
