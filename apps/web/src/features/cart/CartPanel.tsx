import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Modal } from '../../ui/Modal';
import { CartLine } from './CartLine';
import { CartSummary } from './CartSummary';
import { closeCart, dismissCartNotices, selectCartNotices, selectIsCartOpen } from './cartPanelSlice';
import { CloseButton } from '../../ui/CloseButton';
import { cartLineKey, selectCartItems } from '../../app/cartSlice';

const TITLE_ID = 'cart-panel-title';

/**
 * The cart side panel (spec section 2), shown while `selectIsCartOpen`; open it with `openCart()`,
 * close it with `closeCart()`. The default export lets the layout load it lazily.
 */
export function CartPanel() {
  const isOpen = useAppSelector(selectIsCartOpen);
  return isOpen ? <CartDialog /> : null;
}

export default CartPanel;

function CartDialog() {
  const dispatch = useAppDispatch();
  const items = useAppSelector(selectCartItems);
  const notices = useAppSelector(selectCartNotices);
  const close = () => dispatch(closeCart());
  return (
    <Modal variant="side" labelledBy={TITLE_ID} onClose={close}>
      <div className="flex items-center justify-between border-b-4 border-zinc-800 px-5 py-4">
        <h2 id={TITLE_ID} className="pixel-heading text-base text-lime-300">
          Shopping cart
        </h2>
        <CloseButton label="Close cart" onClick={close} />
      </div>
      <div className="flex-1 overflow-y-auto px-5">
        {notices.length > 0 && (
          <div
            role="status"
            className="mt-4 flex flex-col gap-2 border-2 border-amber-400 p-3 text-sm text-amber-200"
          >
            <p className="font-semibold">Some items could not stay in your cart:</p>
            <ul className="list-disc pl-5">
              {notices.map((notice) => (
                <li key={notice}>{notice}</li>
              ))}
            </ul>
            <button
              type="button"
              onClick={() => dispatch(dismissCartNotices())}
              className="self-start font-semibold text-fuchsia-300 underline-offset-4 hover:underline"
            >
              Dismiss
            </button>
          </div>
        )}
        {items.length === 0 ? (
          <p className="py-10 text-center text-zinc-300">Your cart is empty</p>
        ) : (
          <ul aria-label="Cart items">
            {items.map((item) => (
              <CartLine key={cartLineKey(item)} item={item} />
            ))}
          </ul>
        )}
      </div>
      <div className="flex flex-col gap-3 border-t-4 border-zinc-800 px-5 py-4">
        {items.length > 0 && <CartSummary onLeave={close} />}
        <button type="button" onClick={close} className="btn btn-secondary w-full">
          Continue Shopping
        </button>
      </div>
    </Modal>
  );
}
