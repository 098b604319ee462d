import { useId, useState, type ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import {
  categoryLabel,
  categoryTitle,
  formatDollars,
  isCategory,
  variantTitle,
  type Product,
  type ProductVariant,
} from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Price, SaleBadge, SalePrice } from '../../ui/Price';
import { DETAIL_IMAGE_SIZES, imageSrcSet } from '../../ui/productImage';
import { Stars } from '../../ui/Stars';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { catalogApi, useGetProductQuery } from './api';
import { SaleEnds } from './SaleEnds';
import { selectedVariant } from './variants';
import { VariantPicker } from './VariantPicker';
import { WishlistHeart } from '../../app/WishlistHeart';

function Gallery({ product }: { product: Product }) {
  const images = product.productImage;
  const [selected, setSelected] = useState(0);
  const main = images[selected] ?? images[0];
  return (
    <div className="flex flex-col gap-3">
      <div className="aspect-square border-4 border-zinc-800 bg-zinc-900">
        {main ? (
          <img
            src={main}
            srcSet={imageSrcSet(main)}
            sizes={DETAIL_IMAGE_SIZES}
            alt={product.productName}
            fetchPriority="high"
            width={600}
            height={600}
            className="h-full w-full object-contain"
          />
        ) : (
          <div role="img" aria-label={product.productName} className="no-image h-full w-full" />
        )}
      </div>
      {images.length > 1 && (
        <ul className="flex flex-wrap gap-2" aria-label="Product images">
          {images.map((src, index) => (
            <li key={`${src}-${index}`}>
              <button
                type="button"
                aria-label={`Show image ${index + 1}`}
                aria-pressed={index === selected}
                onClick={() => setSelected(index)}
                className={`block h-16 w-16 border-4 bg-zinc-900 sm:h-20 sm:w-20 ${
                  index === selected ? 'border-lime-400' : 'border-zinc-800 hover:border-zinc-500'
                }`}
              >
                <img
                  src={src}
                  srcSet={imageSrcSet(src)}
                  sizes="80px"
                  alt=""
                  width={80}
                  height={80}
                  loading="lazy"
                  className="h-full w-full object-contain"
                />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Quantity stepper and 'Add to Cart' (spec sections 2 and 5: 1 up to the stock), of the chosen variant
 * (issue 31: `variantId`, left out for a product without options). Another variant keeps the quantity,
 * brought down to its stock.
 */
function BuyBox({
  productId,
  variantId,
  stock,
  addToCart,
}: {
  productId: string;
  variantId: string | undefined;
  stock: number;
  addToCart: AddToCart;
}) {
  const inputId = useId();
  const hintId = useId();
  const [qtyText, setQtyText] = useState('1');
  const [adding, setAdding] = useState(false);
  const [shownVariant, setShownVariant] = useState(variantId);
  const qty = Number(qtyText);
  const validQty = qtyText !== '' && Number.isInteger(qty) && qty >= 1;
  if (shownVariant !== variantId) {
    setShownVariant(variantId);
    if (validQty && stock >= 1 && qty > stock) setQtyText(String(stock));
  }
  const aboveStock = validQty && qty > stock;

  if (stock < 1) {
    return (
      <button type="button" disabled className="btn btn-primary w-full sm:w-auto">
        Unavailable
      </button>
    );
  }

  async function add() {
    setAdding(true);
    try {
      await (variantId === undefined ? addToCart(productId, qty) : addToCart(productId, qty, variantId));
    } catch {
      // Spec section 8: add-to-cart failures are only logged (the cart does it); the button comes back.
    } finally {
      setAdding(false);
    }
  }

  const step = (delta: number) => {
    const base = validQty ? qty : 1;
    setQtyText(String(Math.min(Math.max(base + delta, 1), stock)));
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-2">
        <label htmlFor={inputId} className="text-sm font-semibold text-zinc-300">
          Quantity
        </label>
        <div className="flex items-stretch">
          <button
            type="button"
            aria-label="Decrease quantity"
            className="stepper-btn"
            disabled={!validQty || qty <= 1}
            onClick={() => step(-1)}
          >
            −
          </button>
          <input
            id={inputId}
            type="number"
            inputMode="numeric"
            min={1}
            max={stock}
            step={1}
            value={qtyText}
            aria-describedby={aboveStock ? hintId : undefined}
            aria-invalid={aboveStock || !validQty}
            onChange={(e) => setQtyText(e.target.value)}
            onBlur={() => {
              if (!validQty) setQtyText('1');
            }}
            className="field w-20 rounded-none text-center"
          />
          <button
            type="button"
            aria-label="Increase quantity"
            className="stepper-btn"
            disabled={validQty && qty >= stock}
            onClick={() => step(1)}
          >
            +
          </button>
        </div>
        {aboveStock && (
          <p id={hintId} className="text-sm text-amber-300">
            Only {stock} in stock.
          </p>
        )}
      </div>
      <button
        type="button"
        className="btn btn-primary w-full sm:w-auto"
        disabled={!validQty || aboveStock || adding}
        onClick={() => void add()}
      >
        {adding ? 'Adding...' : 'Add to Cart'}
      </button>
    </div>
  );
}

/** What the product page shows under the product: its reviews (issue 14), given by app/ (features don't import each other). */
export type ProductReviewsSlot = (product: Product) => ReactNode;

/**
 * 'Add to Cart': puts `qty` of the product (issue 31: of its variant `variantId`, given for a product with
 * options) in the cart and shows it; rejects when it could not (the cart feature's, given by app/). The
 * button is busy until it settles.
 */
export type AddToCart = (productId: string, qty: number, variantId?: string) => Promise<void>;

/**
 * Issue 34: what the page offers under "Unavailable" when the chosen variant (`variantId`, undefined for a
 * product without options) is sold out: the alerts feature's "Notify me when it is back", given by app/.
 */
export type NotifyMeSlot = (product: Product, variantId: string | undefined) => ReactNode;

interface ProductPageSlots {
  reviews?: ProductReviewsSlot;
  addToCart: AddToCart;
  notifyMe?: NotifyMeSlot;
}

/**
 * The variant chosen on the page (issue 31): the one `?variant=` names, the default one without (or for
 * an id the product does not have), so a shared link opens that variant, in the server's render too.
 * A choice is shown at once and written to the address in place (no new history entry). The router
 * updates the address in a transition: the page does not wait for it, so a choice followed at once by
 * 'Add to Cart' (or picked up with others before the app started, issue 29) adds that variant.
 */
function useChosenVariant(product: Product) {
  const [params] = useSearchParams();
  const { hash } = useLocation();
  const navigate = useNavigate();
  const inAddress = params.get('variant');
  const [chosen, setChosen] = useState({ inAddress, id: inAddress });
  let id = chosen.id;
  if (chosen.inAddress !== inAddress) {
    // The address changed (this page's own choice arriving there, or a link): it says which.
    setChosen({ inAddress, id: inAddress });
    id = inAddress;
  }
  const variant = selectedVariant(product, id);
  const choose = (next: ProductVariant) => {
    setChosen({ inAddress, id: next._id });
    const search = new URLSearchParams(params);
    search.set('variant', next._id);
    void navigate({ search: `?${search.toString()}`, hash }, { replace: true });
  };
  return [variant, choose] as const;
}

function ProductDetails({ product, reviews, addToCart, notifyMe }: ProductPageSlots & { product: Product }) {
  const [chosen, choose] = useChosenVariant(product);
  // A product without options is sold in one form and shows what it always did: the spec's fields, which
  // are its only variant's (decision 007).
  const variant = product.options.length > 0 ? chosen : undefined;
  const price = variant ? variant.price : product.productPrice;
  // Issue 32: set only while a sale runs on the product; `price` is then the sale price.
  const regular = variant ? variant.compareAtPrice : product.compareAtPrice;
  const stock = variant ? variant.stockQuantity : product.stockQuantity;
  return (
    <article>
      <div className="grid gap-8 md:grid-cols-2 md:gap-12">
        <Gallery product={product} />
        <div className="flex flex-col gap-4">
          <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
            <Link
              to={`/shop/${product.productCategory}`}
              className="text-sm font-semibold tracking-wide text-cyan-300 uppercase underline-offset-4 hover:underline"
            >
              {categoryLabel(product.productCategory)}
            </Link>
            {/* Issue 33: what it runs on, beside the category. */}
            {product.platform && (
              <p className="text-sm break-words text-zinc-300">Platform: {product.platform}</p>
            )}
          </div>
          <div className="flex items-start justify-between gap-3">
            <h1 className="min-w-0 text-3xl font-bold break-words text-zinc-50 sm:text-4xl">
              {product.productName}
            </h1>
            {/* Issue 34: on the wishlist or not. */}
            <WishlistHeart productId={product._id} productName={product.productName} className="shrink-0" />
          </div>
          <div className="flex flex-wrap items-center gap-3 text-zinc-300">
            <Stars rating={product.productRating} className="text-xl" />
            {product.reviewCount > 0 && (
              <span aria-hidden="true" className="font-semibold text-zinc-100">
                {product.productRating.toFixed(1)}
              </span>
            )}
            <a href="#reviews" className="underline-offset-4 hover:text-lime-300 hover:underline">
              ({product.reviewCount} {product.reviewCount === 1 ? 'review' : 'reviews'})
            </a>
          </div>
          {regular === undefined ? (
            <Price value={price} className="text-3xl font-bold text-lime-300" />
          ) : (
            <div className="flex flex-col gap-1">
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <SalePrice
                  value={price}
                  regular={regular}
                  className="text-3xl font-bold text-lime-300"
                  regularClassName="text-xl font-normal text-zinc-400"
                />{' '}
                <SaleBadge />
              </div>
              {product.saleEndsAt && <SaleEnds iso={product.saleEndsAt} />}
            </div>
          )}
          {variant && (
            <>
              <VariantPicker product={product} current={variant} onChoose={choose} />
              {/* What a choice came to (it may change another option too, and the price), said once. */}
              <p role="status" className="sr-only">
                {`${variantTitle(product.options, variant.options)}: ${
                  regular === undefined
                    ? formatDollars(price)
                    : `sale price ${formatDollars(price)}, regular price ${formatDollars(regular)}`
                }, ${stock > 0 ? `in stock: ${stock}` : 'sold out'}`}
              </p>
            </>
          )}
          <p className="text-zinc-300">In stock: {stock}</p>
          <p className="whitespace-pre-line text-zinc-200">{product.productDescription}</p>
          <BuyBox
            key={product._id}
            productId={product._id}
            variantId={variant?._id}
            stock={stock}
            addToCart={addToCart}
          />
          {stock < 1 && notifyMe?.(product, variant?._id)}
        </div>
      </div>
      {reviews?.(product)}
    </article>
  );
}

/** The API's status for a product that does not exist: unknown (404) or not an id at all (400). */
function isUnknownProduct(error: unknown): boolean {
  const status = (error as { status?: unknown } | undefined)?.status;
  return status === 404 || status === 400;
}

/**
 * A real "not found" page (the server answers it with status 404 and noindex; issue 30: in words for a
 * shopper, not the API's "Invalid id"), with the ways back: the shop, and the category the link named.
 */
function ProductNotFound() {
  const { category } = useParams();
  return (
    <section className="flex flex-col items-center gap-6 py-12 text-center">
      <h1 className="pixel-heading text-xl text-lime-300 sm:text-2xl">Product not found</h1>
      <p className="max-w-md text-lg text-zinc-100">We couldn&apos;t find that product.</p>
      <p className="max-w-md text-zinc-300">
        It may have sold and been taken off the shelf, or the link may be mistyped.
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        <Link to="/" className="btn btn-primary">
          Back to the shop
        </Link>
        {category && isCategory(category) && (
          <Link to={`/shop/${category}`} className="btn btn-secondary">
            Browse {categoryTitle(category)}
          </Link>
        )}
      </div>
    </section>
  );
}

/**
 * /shop/:category/product/:id (spec section 2). Also /product/:id (issue 14: "Review this product" in an
 * order knows the product but not its category): once the product is known, the address becomes its
 * own, keeping the #fragment; so does a product reached under another category (issue 30).
 */
export function ProductPage({ reviews, addToCart, notifyMe }: ProductPageSlots) {
  const { id = '', category } = useParams();
  const { search, hash } = useLocation();
  // Already known not to exist (the server's render said so): no second request for it.
  const known = catalogApi.endpoints.getProduct.useQueryState(id);
  const unknown = isUnknownProduct(known.error);
  // Asked again whenever the page is opened: the server's page (and a product seen a while ago) may
  // show an older stock figure (the server keeps its rendered page while only stock changes, issue 28).
  const { data, error, isFetching } = useGetProductQuery(id, {
    skip: unknown,
    refetchOnMountOrArgChange: true,
  });
  const loaded = data && data._id === id ? data : undefined;
  const notFound = unknown || (isUnknownProduct(error) && !isFetching);
  useDocumentTitle(
    loaded?.productName ?? (notFound ? 'Product not found' : error ? 'Product' : 'Loading product...'),
  );
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      {notFound ? (
        <ProductNotFound />
      ) : error && !isFetching ? (
        <ErrorLine message={errorMessage(error)} />
      ) : !loaded ? (
        <p role="status" className="py-12 text-center text-lg text-zinc-300">
          Loading product...
        </p>
      ) : category !== loaded.productCategory ? (
        // /product/:id, or another category's address (the server answers that one with a 301).
        <Navigate replace to={`/shop/${loaded.productCategory}/product/${loaded._id}${search}${hash}`} />
      ) : (
        <ProductDetails product={loaded} reviews={reviews} addToCart={addToCart} notifyMe={notifyMe} />
      )}
    </div>
  );
}
