/**
 * A pseudo-locale: every text of the catalogue, marked. A screen drawn in it shows at a glance
 * (and to a test) any text that does not come from the catalogue: it is the one left unmarked.
 */
export const PSEUDO_LOCALE = 'qps';
export const PSEUDO_OPEN = '⟦';
export const PSEUDO_CLOSE = '⟧';

function mark(text: string): string {
  // Polyglot's plural forms ("one |||| many") are marked one by one.
  return text
    .split('||||')
    .map((form) => `${PSEUDO_OPEN}${form.trim()}${PSEUDO_CLOSE}`)
    .join(' |||| ');
}

export function pseudoMessages<T>(messages: T): T {
  if (typeof messages === 'string') return mark(messages) as T;
  if (!messages || typeof messages !== 'object') return messages;
  return Object.fromEntries(Object.entries(messages).map(([key, value]) => [key, pseudoMessages(value)])) as T;
}
