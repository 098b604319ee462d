import { useId } from 'react';
import { formatDollars, nameWithVariant } from '@pixel-vault/shared';
import { useAppDispatch } from '../../app/hooks';
import { ItemName } from '../../ui/ItemName';
import { Price } from '../../ui/Price';
import { removeFromCart, updateQty, type CartItem } from '../../app/cartSlice';

/**
 * One cart line (spec section 2): image, name (issue 31: and the variant's title), price, quantity
 * 1..countInStock and Remove. Issue 34: a logged-in shopper's line says when its price changed since it
 * was added, and when fewer are in stock than it asks for (the server's answer says both).
 */
export function CartLine({ item }: { item: CartItem }) {
  const dispatch = useAppDispatch();
  const selectId = useId();
  const key = { product: item.product, variant: item.variant };
  const label = nameWithVariant(item.name, item.variantTitle ?? '');
  // A line the server says is short keeps its quantity in the list, so the select shows what it asks.
  const options = Array.from({ length: Math.max(item.countInStock, item.qty, 1) }, (_, i) => i + 1);
  return (
    <li className="flex gap-4 border-b-2 border-zinc-800 py-4">
      {item.image ? (
        <img
          src={item.image}
          alt={item.name}
          width={80}
          height={80}
          loading="lazy"
          className="h-20 w-20 shrink-0 border-2 border-zinc-700 bg-zinc-900 object-contain"
        />
      ) : (
        <div aria-hidden="true" className="h-20 w-20 shrink-0 border-2 border-zinc-700 bg-zinc-900" />
      )}
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <div className="flex items-start justify-between gap-2">
          <ItemName name={item.name} variantTitle={item.variantTitle} />
          <Price value={item.price} className="shrink-0 font-semibold text-lime-300" />
        </div>
        <LineChanges item={item} />
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="flex items-center gap-2">
            <label htmlFor={selectId} className="text-sm text-zinc-400">
              Qty<span className="sr-only"> of {label}</span>
            </label>
            <select
              id={selectId}
              value={item.qty}
              onChange={(e) => dispatch(updateQty({ ...key, qty: Number(e.target.value) }))}
              className="field w-20 py-1"
            >
              {options.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            onClick={() => dispatch(removeFromCart(key))}
            aria-label={`Remove ${label}`}
            className="text-sm font-semibold text-fuchsia-300 underline-offset-4 hover:underline"
          >
            Remove
          </button>
        </div>
      </div>
    </li>
  );
}

/** What changed since the line was added: its price, the stock behind it (issue 34). */
function LineChanges({ item }: { item: CartItem }) {
  const was = item.priceChanged === true ? item.addedPrice : undefined;
  if (was === undefined && item.stockShort !== true) return null;
  return (
    <div className="flex flex-col gap-1 text-sm">
      {was !== undefined && (
        <p className="text-amber-300">
          {item.price < was ? 'Price dropped' : 'Price changed'} since you added it: was {formatDollars(was)}
        </p>
      )}
      {item.stockShort === true && (
        <p className="text-fuchsia-300">
          {item.countInStock > 0 ? `Only ${item.countInStock} left in stock` : 'Out of stock now'}
        </p>
      )}
    </div>
  );
}
