import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { UpdateProductBody, type Product } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Modal } from '../../ui/Modal';
import { ProblemList } from '../../ui/ProblemList';
import { Spinner } from '../../ui/Spinner';
import { useGetProductToEditQuery, useUpdateProductMutation } from './api';
import { PRODUCT_PARAM } from './dashboardLinks';
import { Field, TextAreaField } from './fields';
import { PlatformField } from './PlatformField';
import { checkProductForm, NO_PROBLEMS, type ProductFormProblems } from './product-form';
import { ProductSearchList } from './ProductSearchList';
import { sendOrRefusal } from './submit';
import { draftFromProduct, pricingToSend } from './variant-draft';
import { VariantsEditor } from './VariantsEditor';

function EditProductModal({ product, onClose }: { product: Product; onClose: () => void }) {
  const [values, setValues] = useState({
    productName: product.productName,
    productDescription: product.productDescription,
    platform: product.platform ?? '',
  });
  // Its options and variants with their ids: the whole list goes back, a removed row is not in it.
  const [draft, setDraft] = useState(() => draftFromProduct(product));
  const [problems, setProblems] = useState<ProductFormProblems>(NO_PROBLEMS);
  const [updateProduct, { isLoading }] = useUpdateProductMutation();
  const titleId = useId();
  const hadOptions = product.options.length > 0 || product.variants.length > 1;
  const set = (key: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [key]: value }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { productName, productDescription, platform } = values;
    // The spec's field order, as this form has always sent it.
    const { productPrice, stockQuantity, ...variants } = pricingToSend(draft, hadOptions);
    // Issue 33: the platform only when it changed.
    const platformChanged = platform.trim() !== (product.platform ?? '');
    const input = {
      productName,
      productPrice,
      stockQuantity,
      productDescription,
      ...(platformChanged ? { platform } : {}),
      ...variants,
    };
    const checked = checkProductForm(UpdateProductBody, input, draft);
    if (!checked.data) {
      setProblems(checked.problems);
      return;
    }
    // A cleared platform is checked as none (null) and sent as '', which the server reads as none.
    const body = checked.data.platform === null ? { ...checked.data, platform: '' } : checked.data;
    const refused = await sendOrRefusal(() => updateProduct({ id: product._id, body }).unwrap());
    if (!refused) {
      onClose();
      return;
    }
    // A SKU already in use is about the variants: said beside them.
    setProblems(
      refused.code === 'SKU_TAKEN'
        ? { form: [], variants: [refused.message] }
        : { form: [refused.message], variants: [] },
    );
  }

  return (
    <Modal onClose={onClose} labelledBy={titleId}>
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4">
        <h3 id={titleId} className="pixel-heading text-base text-lime-300">
          Edit {product.productName}
        </h3>
        <Field label="Name" value={values.productName} onChange={set('productName')} required />
        <PlatformField value={values.platform} onChange={set('platform')} />
        <TextAreaField
          label="Description"
          value={values.productDescription}
          onChange={set('productDescription')}
          required
        />
        <VariantsEditor draft={draft} onChange={setDraft} problems={problems.variants} />
        <ProblemList problems={problems.form} />
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

/**
 * Update Product (spec section 2): name, price, stock and description in a modal that closes after
 * saving; and the product's options and variants (issue 31) and its platform (issue 33).
 */
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
