import type { PlanPrice } from '../../../common/plans';

/** Numbers, prices and dates as the Subscription page writes them, in the console's locale. */

export function formatCount(value: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(value);
}

export function formatPrice(price: PlanPrice, locale: string): string {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: price.currency,
    minimumFractionDigits: 0,
    maximumFractionDigits: 2,
  }).format(price.amount);
}

/** A day; `utc` for the month boundaries runs are counted by. */
export function formatDay(iso: string, locale: string, utc = false): string {
  return new Date(iso).toLocaleDateString(locale, { day: 'numeric', month: 'long', year: 'numeric', ...(utc ? { timeZone: 'UTC' } : {}) });
}
