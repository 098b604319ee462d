import { formatDollars } from '@pixel-vault/shared';

/** A price in dollars as the API gives it, shown as "$19.99" (spec: dollar sign and two decimals). */
export function Price({ value, className }: { value: number; className?: string }) {
  return <span className={className}>{formatDollars(value)}</span>;
}
