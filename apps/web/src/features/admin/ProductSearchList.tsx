import { useState, type ReactNode } from 'react';
import { PRODUCTS_MAX_LIMIT, type Product } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useSearchProductsQuery } from './api';
import { useDebouncedValue } from '../../ui/useDebouncedValue';
import { SearchBox } from './SearchBox';

/**
 * Remove Product and Update Product share this (spec section 2): 'Search for a product' (by name,
 * case-insensitive, done by the server with `q`), then a card per product with its first image, name
 * and price with 2 decimals, and the section's own action.
 */
export function ProductSearchList({ action }: { action: (product: Product) => ReactNode }) {
  const [text, setText] = useState('');
  const q = useDebouncedValue(text);
  // currentData, not data: while a new search runs, the previous results are not shown (an Edit or
  // Delete click must hit a product of the search on screen).
  const { currentData, error } = useSearchProductsQuery({ q, limit: PRODUCTS_MAX_LIMIT });
  const pending = text !== q || (!currentData && !error);
  const products = currentData?.products ?? [];

  return (
    <div className="flex flex-col gap-4">
      <SearchBox
        label="Search for a product"
        placeholder="Search for a product"
        value={text}
        onChange={setText}
      />
      {pending ? (
        <Spinner label="Loading products" />
      ) : error ? (
        <ErrorLine message={errorMessage(error)} />
      ) : products.length === 0 ? (
        <p className="text-zinc-300">No products found</p>
      ) : (
        <ul aria-label="Products" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {products.map((product) => (
            <li key={product._id} className="flex flex-col gap-2 border-2 border-zinc-700 bg-zinc-950 p-4">
              {product.productImage[0] ? (
                <img
                  src={product.productImage[0]}
                  alt={product.productName}
                  loading="lazy"
                  className="aspect-square w-full bg-zinc-900 object-contain"
                />
              ) : null}
              <p className="font-semibold text-lime-300">{product.productName}</p>
              <p>${product.productPrice.toFixed(2)}</p>
              {action(product)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
