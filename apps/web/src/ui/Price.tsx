import { formatDollars } from '@pixel-vault/shared';

/** A price in dollars as the API gives it, shown as "$19.99" (spec: dollar sign and two decimals). */
export function Price({ value, className }: { value: number; className?: string }) {
  return <span className={className}>{formatDollars(value)}</span>;
}

/**
 * A price during a sale (issue 32): the sale price, then the regular one struck through. A screen
 * reader does not say a strike, so each is named in words it reads ("Sale price $30.00 Regular price
 * $40.00"). `from` for a product whose variants cost different amounts: "from $30.00 $40.00".
 */
export function SalePrice({
  value,
  regular,
  from = false,
  className,
  regularClassName,
}: {
  value: number;
  regular: number;
  from?: boolean;
  className?: string;
  regularClassName?: string;
}) {
  // The spaces stand outside the words' spans, where a screen reader's name of the whole keeps them.
  return (
    <span className={className}>
      <span className="sr-only">Sale price</span>{' '}
      {from && (
        <>
          <span className="text-sm font-semibold text-zinc-300">from</span>{' '}
        </>
      )}
      {formatDollars(value)}{' '}
      <s className={regularClassName}>
        <span className="sr-only">Regular price</span> {formatDollars(regular)}
      </s>
    </span>
  );
}

/** "Sale", in words (not only a colour), beside a price on sale. */
export function SaleBadge({ className = '' }: { className?: string }) {
  return (
    <span
      className={`inline-block border-2 border-amber-300 px-1.5 text-xs leading-5 font-bold tracking-wide text-amber-200 uppercase ${className}`}
    >
      Sale
    </span>
  );
}
