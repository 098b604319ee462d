import { Link } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { CartLine } from './CartLine';
import { CartSummary } from './CartSummary';
import { cartLineKey, selectCartItems } from '../../app/cartSlice';

/** /cart (spec section 2: content not shown): the panel's contents as a page. */
export default function CartPage() {
  useDocumentTitle('Cart');
  const items = useAppSelector(selectCartItems);
  return (
    <section className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="pixel-heading mb-6 text-xl text-lime-300 sm:text-2xl">Shopping cart</h1>
      {items.length === 0 ? (
        <div className="flex flex-col items-start gap-6">
          <p className="text-zinc-300">Your cart is empty</p>
          <Link to="/" className="btn btn-secondary">
            Continue Shopping
          </Link>
        </div>
      ) : (
        <div className="grid gap-8 md:grid-cols-[1fr_18rem]">
          <ul aria-label="Cart items">
            {items.map((item) => (
              <CartLine key={cartLineKey(item)} item={item} />
            ))}
          </ul>
          <div className="flex flex-col gap-3 self-start border-4 border-zinc-800 p-5">
            <CartSummary />
            <Link to="/" className="btn btn-secondary w-full">
              Continue Shopping
            </Link>
          </div>
        </div>
      )}
    </section>
  );
}
