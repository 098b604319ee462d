import { useId } from 'react';
import { nameWithVariant } from '@pixel-vault/shared';
import { useAppDispatch } from '../../app/hooks';
import { ItemName } from '../../ui/ItemName';
import { Price } from '../../ui/Price';
import { removeFromCart, updateQty, type CartItem } from '../../app/cartSlice';

/**
 * One cart line (spec section 2): image, name (issue 31: and the variant's title), price, quantity
 * 1..countInStock and Remove.
 */
export function CartLine({ item }: { item: CartItem }) {
  const dispatch = useAppDispatch();
  const selectId = useId();
  const key = { product: item.product, variant: item.variant };
  const label = nameWithVariant(item.name, item.variantTitle ?? '');
  const options = Array.from({ length: Math.max(item.countInStock, 1) }, (_, i) => i + 1);
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
