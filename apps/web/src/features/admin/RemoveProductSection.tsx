import { useState } from 'react';
import type { Product } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorLine } from '../../ui/ErrorLine';
import { useDeleteProductMutation } from './api';
import { ProductSearchList } from './ProductSearchList';

export const CONFIRM_DELETE_PRODUCT = 'Are you sure you want to delete this product?';

function DeleteProductButton({ product }: { product: Product }) {
  const [confirming, setConfirming] = useState(false);
  const [deleteProduct, { isLoading, error }] = useDeleteProductMutation();
  return (
    <>
      <button
        type="button"
        className="btn btn-secondary self-start"
        aria-label={`Delete ${product.productName}`}
        onClick={() => setConfirming(true)}
      >
        Delete
      </button>
      {error && <ErrorLine message={errorMessage(error)} />}
      {confirming && (
        <ConfirmDialog
          message={CONFIRM_DELETE_PRODUCT}
          busy={isLoading}
          onConfirm={() => {
            setConfirming(false);
            void deleteProduct(product._id);
          }}
          onCancel={() => setConfirming(false)}
        />
      )}
    </>
  );
}

/** Remove Product (spec section 2): the product leaves the shop; past orders keep their copy. */
export function RemoveProductSection() {
  return <ProductSearchList action={(product) => <DeleteProductButton product={product} />} />;
}
