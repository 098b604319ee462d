import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { UpdateProductFields, type Product } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { useGetProductToEditQuery, useUpdateProductMutation } from './api';
import { PRODUCT_PARAM } from './dashboardLinks';
import { Field, TextAreaField } from './fields';
import { ProductSearchList } from './ProductSearchList';
import { validateAndSend } from './submit';

function EditProductModal({ product, onClose }: { product: Product; onClose: () => void }) {
  const [values, setValues] = useState({
    productName: product.productName,
    productPrice: String(product.productPrice),
    stockQuantity: String(product.stockQuantity),
    productDescription: product.productDescription,
  });
  const [errors, setErrors] = useState<string[]>([]);
  const [updateProduct, { isLoading }] = useUpdateProductMutation();
  const titleId = useId();
  const set = (key: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [key]: value }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problems = await validateAndSend(UpdateProductFields, values, (body) =>
      updateProduct({ id: product._id, body }).unwrap(),
    );
    if (problems.length > 0) setErrors(problems);
    else onClose();
  }

  return (
    <Modal onClose={onClose} labelledBy={titleId}>
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4">
        <h3 id={titleId} className="pixel-heading text-base text-lime-300">
          Edit {product.productName}
        </h3>
        <Field label="Name" value={values.productName} onChange={set('productName')} required />
        <Field
          label="Price"
          type="number"
          step="0.01"
          min="0"
          value={values.productPrice}
          onChange={set('productPrice')}
          required
        />
        <Field
          label="Stock Quantity"
          type="number"
          step="1"
          min="0"
          value={values.stockQuantity}
          onChange={set('stockQuantity')}
          required
        />
        <TextAreaField
          label="Description"
          value={values.productDescription}
          onChange={set('productDescription')}
          required
        />
        {errors.length > 0 && (
          <ul role="alert" className="text-red-500">
            {errors.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        )}
        <div className="flex justify-end gap-3">
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={isLoading}>
            Save Changes
          </button>
        </div>
      </form>
    </Modal>
  );
}

function EditProductButton({ product }: { product: Product }) {
  const [editing, setEditing] = useState(false);
  return (
    <>
      <button
        type="button"
        className="btn btn-secondary self-start"
        aria-label={`Edit ${product.productName}`}
        onClick={() => setEditing(true)}
      >
        Edit
      </button>
      {editing && <EditProductModal product={product} onClose={() => setEditing(false)} />}
    </>
  );
}

/**
 * Issue 15: `?product=<id>` (the Overview's best sellers and low-stock list link here) opens the edit
 * form on that product; closing it takes the id out of the URL.
 */
function LinkedProduct({ productId, onClose }: { productId: string; onClose: () => void }) {
  const { data: product, error } = useGetProductToEditQuery(productId);
  if (error) return <ErrorLine message={errorMessage(error)} />;
  if (!product) return <Spinner label="Loading the product" />;
  return <EditProductModal product={product} onClose={onClose} />;
}

/** Update Product (spec section 2): name, price, stock and description in a modal that closes after saving. */
export function UpdateProductSection() {
  const [params, setParams] = useSearchParams();
  const linked = params.get(PRODUCT_PARAM);
  return (
    <div className="flex flex-col gap-4">
      {linked && (
        <LinkedProduct
          key={linked}
          productId={linked}
          onClose={() =>
            setParams(
              (current) => {
                const next = new URLSearchParams(current);
                next.delete(PRODUCT_PARAM);
                return next;
              },
              { replace: true },
            )
          }
        />
      )}
      <ProductSearchList action={(product) => <EditProductButton product={product} />} />
    </div>
  );
}
