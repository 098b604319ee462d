import { useState } from 'react';
import { Link } from 'react-router';
import type { WishlistItem } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Price } from '../../ui/Price';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useGetWishlistQuery, useSetWishlistedMutation } from './api';

/** The cart's add (given by app/, as features don't import each other): resolves once added. */
export type AddToCart = (productId: string) => Promise<void>;

/**
 * /wishlist (issue 34): the logged-in shopper's wishlist, newest first, each product with its current
 * price and stock, Add to Cart and Remove.
 */
export default function WishlistPage({ addToCart }: { addToCart: AddToCart }) {
  useDocumentTitle('Wishlist');
  const { data, error, isLoading } = useGetWishlistQuery(undefined, { refetchOnMountOrArgChange: true });
  const [status, setStatus] = useState('');

  return (
    <section className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="pixel-heading mb-6 text-xl text-lime-300 sm:text-2xl">Wishlist</h1>
      <p role="status" className="sr-only">
        {status}
      </p>
      {isLoading ? (
        <Spinner label="Loading your wishlist" />
      ) : error ? (
        <ErrorLine message={errorMessage(error)} />
      ) : !data || data.items.length === 0 ? (
        <div className="flex flex-col items-start gap-6">
          <p className="text-zinc-300">Your wishlist is empty. Press the heart on a game to keep it here.</p>
          <Link to="/" className="btn btn-secondary">
            Start Shopping
          </Link>
        </div>
      ) : (
        <ul aria-label="Wishlist items" className="flex flex-col gap-3">
          {data.items.map((item) => (
            <WishlistRow key={item.product} item={item} addToCart={addToCart} onDone={setStatus} />
          ))}
        </ul>
      )}
    </section>
  );
}

function WishlistRow({
  item,
  addToCart,
  onDone,
}: {
  item: WishlistItem;
  addToCart: AddToCart;
  onDone: (message: string) => void;
}) {
  const [setWishlisted, removal] = useSetWishlistedMutation();
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState('');
  const soldOut = item.countInStock < 1;

  async function add() {
    setAdding(true);
    setError('');
    try {
      await addToCart(item.product);
      onDone(`${item.name} added to your cart`);
    } catch (e) {
      setError(typeof e === 'string' ? e : errorMessage(e));
    } finally {
      setAdding(false);
    }
  }

  async function remove() {
    setError('');
    const result = await setWishlisted({ productId: item.product, on: false });
    if (result.error) setError(errorMessage(result.error));
    else onDone(`${item.name} removed from your wishlist`);
  }

  return (
    <li className="flex flex-wrap items-center gap-4 border-4 border-zinc-800 p-3 sm:flex-nowrap">
      {item.image ? (
        <img
          src={item.image}
          alt=""
          width={80}
          height={80}
          loading="lazy"
          className="h-20 w-20 shrink-0 border-2 border-zinc-700 bg-zinc-900 object-contain"
        />
      ) : (
        <div aria-hidden="true" className="h-20 w-20 shrink-0 border-2 border-zinc-700 bg-zinc-900" />
      )}
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <Link
          to={`/shop/${item.category}/product/${item.product}`}
          className="font-semibold break-words text-zinc-100 underline-offset-4 hover:text-lime-200 hover:underline"
        >
          {item.name}
        </Link>
        <Price value={item.price} className="font-bold text-lime-300" />
        <span className={soldOut ? 'text-sm font-bold text-amber-300 uppercase' : 'text-sm text-zinc-300'}>
          {soldOut ? 'Sold out' : `${item.countInStock} in stock`}
        </span>
        {error && <ErrorLine message={error} />}
      </div>
      <div className="flex w-full flex-wrap gap-2 sm:w-auto sm:flex-col">
        <button
          type="button"
          onClick={() => void add()}
          disabled={soldOut || adding}
          aria-label={`Add ${item.name} to cart`}
          className="btn btn-primary"
        >
          {adding ? 'Adding...' : 'Add to Cart'}
        </button>
        <button
          type="button"
          onClick={() => void remove()}
          disabled={removal.isLoading}
          aria-label={`Remove ${item.name} from wishlist`}
          className="btn btn-secondary"
        >
          Remove
        </button>
      </div>
    </li>
  );
}
