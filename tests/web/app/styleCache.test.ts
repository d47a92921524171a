import { describe, expect, it } from 'vitest';
import { consoleStyleCache } from '../../../src/app/styleCache';

describe('the style cache', () => {
  it("gives emotion the page's nonce, so its style elements pass the policy", () => {
    const doc = document.implementation.createHTMLDocument('console');
    const meta = doc.createElement('meta');
    meta.name = 'csp-nonce';
    meta.content = 'bm9uY2Utb2YtdGhpcy1wYWdl';
    doc.head.append(meta);
    expect(consoleStyleCache(doc).nonce).toBe('bm9uY2Utb2YtdGhpcy1wYWdl');
  });

  it('leaves the nonce out where the page has none (the development server)', () => {
    const doc = document.implementation.createHTMLDocument('console');
    expect(consoleStyleCache(doc).nonce).toBeUndefined();
  });
});
