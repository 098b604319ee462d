import {
  formatCents,
  formatDollars,
  toCents,
  type CheckDiscountResponse,
  type Order,
  type OrderTotals,
} from '@pixel-vault/shared';
import { ItemName } from '../../ui/ItemName';
import { discountLine } from '../../ui/orderMath';
import { cartLineKey, type CartItem } from '../../app/cartSlice';

function Row({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div
      className={`flex justify-between gap-4 ${strong ? 'text-lg font-semibold text-lime-300' : 'text-zinc-200'}`}
    >
      <dt>{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}

/**
 * The order summary (spec section 2): the cart's lines and totals from the shared pricing module.
 * Once the order exists on the server its totals are shown instead; they are what will be charged.
 * Issue 32: with a discount code, the server's check of it prices the cart until the order exists,
 * and a "Discount (CODE)" line comes off the items (Items stays the subtotal before it).
 */
export function CheckoutSummary({
  items,
  cartTotals,
  order,
  checked,
}: {
  items: readonly CartItem[];
  cartTotals: OrderTotals;
  order: Order | undefined;
  /** The applied discount code's check for this cart, if a code is applied. */
  checked?: CheckDiscountResponse | undefined;
}) {
  const priced = order ?? checked;
  const totals = priced
    ? {
        itemsCents: toCents(priced.price),
        shippingCents: toCents(priced.shippingPrice),
        taxCents: toCents(priced.taxPrice),
        totalCents: toCents(priced.totalPrice),
      }
    : cartTotals;
  const discount = order
    ? discountLine(order)
    : checked
      ? discountLine({ discountCode: checked.code, discountPrice: checked.discountPrice })
      : null;
  // Prices moved when the server's items differ from the cart's; a code's discount is no such change.
  const pricesChanged =
    priced != null &&
    (discount ? totals.itemsCents !== cartTotals.itemsCents : totals.totalCents !== cartTotals.totalCents);
  const giftCents = order ? toCents(order.giftCardAmount) : 0;

  return (
    <section
      aria-labelledby="order-summary-title"
      className="flex flex-col gap-4 border-4 border-zinc-800 p-5"
    >
      <h2 id="order-summary-title" className="pixel-heading text-sm text-cyan-300">
        Order Summary
      </h2>
      <ul aria-label="Items in your order" className="flex flex-col">
        {items.map((item) => (
          <li key={cartLineKey(item)} className="flex items-center gap-3 border-b-2 border-zinc-800 py-3">
            {item.image ? (
              <img
                src={item.image}
                alt={item.name}
                width={56}
                height={56}
                className="h-14 w-14 shrink-0 border-2 border-zinc-700 bg-zinc-900 object-contain"
              />
            ) : (
              <div aria-hidden="true" className="no-image h-14 w-14 shrink-0 border-2 border-zinc-700" />
            )}
            <div className="min-w-0 flex-1">
              <ItemName name={item.name} variantTitle={item.variantTitle} />
              <p className="text-sm text-zinc-400 tabular-nums">
                {item.qty} × {formatDollars(item.price)}
              </p>
            </div>
          </li>
        ))}
      </ul>
      <dl className="flex flex-col gap-1" aria-label="Totals">
        <Row label="Items" value={formatCents(totals.itemsCents)} />
        {discount && <Row label={discount.label} value={discount.value} />}
        <Row label="Shipping" value={formatCents(totals.shippingCents)} />
        <Row label="Tax" value={formatCents(totals.taxCents)} />
        <Row label="Total" value={formatCents(totals.totalCents)} strong />
        {order && giftCents > 0 && (
          <>
            <Row label="Gift card" value={`−${formatCents(giftCents)}`} />
            <Row label="Amount due" value={formatDollars(order.amountDue)} strong />
          </>
        )}
      </dl>
      {pricesChanged && (
        <p role="status" className="text-sm text-yellow-300">
          Prices were updated since these items went into your cart; the totals above are the shop&apos;s
          current prices.
        </p>
      )}
    </section>
  );
}
