import { dateTimeFormat } from '@pixel-vault/shared';
import { useHydrated } from '../../ui/useHydrated';

/**
 * When a sale ends, as the product page says it: "Sun, Nov 30, 6:00 PM" in the shopper's time zone.
 * The server knows no shopper's zone: its page says the moment in UTC, named ("…, 11:00 PM UTC"), and
 * the hydration draws the same before the browser's render says it in the shopper's (a page that
 * differed from the server's would be drawn again from scratch, and warned about).
 */
export function saleEndText(iso: string, timeZone?: 'UTC'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return dateTimeFormat({
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(timeZone && { timeZone, timeZoneName: 'short' }),
  }).format(date);
}

/** "Sale ends Sun, Nov 30, 6:00 PM" (issue 32), under a price on sale. */
export function SaleEnds({ iso }: { iso: string }) {
  const hydrated = useHydrated();
  const text = saleEndText(iso, hydrated ? undefined : 'UTC');
  if (!text) return null;
  return (
    <p className="font-semibold text-amber-200">
      Sale ends <time dateTime={iso}>{text}</time>
    </p>
  );
}
