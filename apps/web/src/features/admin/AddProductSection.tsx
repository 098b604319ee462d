import { useEffect, useState, type FormEvent } from 'react';
import {
  ADD_PRODUCT_SUCCESS_MS,
  CATEGORIES,
  categoryTitle,
  CreateProductBody,
  type CreateProductFields,
  MAX_PRODUCT_IMAGES,
} from '@pixel-vault/shared';
import { ImageDropZone, useImageFiles } from '../../ui/ImageDropZone';
import { ProblemList } from '../../ui/ProblemList';
import { useAddProductMutation } from './api';
import { Field, SelectField, TextAreaField } from './fields';
import { PlatformField } from './PlatformField';
import { checkProductForm, NO_PROBLEMS, productFormData, type ProductFormProblems } from './product-form';
import { sendOrRefusal, type Refusal } from './submit';
import { emptyDraft, pricingToSend } from './variant-draft';
import { VariantsEditor } from './VariantsEditor';

/**
 * The fields the form asks for. Rating and review count are not among them (issue 14): they are
 * computed from verified buyers' reviews; the server still accepts them from spec clients and ignores them.
 */
type AskedField = Exclude<keyof CreateProductFields, 'productRating' | 'reviewCount'>;
/** Price and stock are the variants editor's (its one variant's, without options). */
type FormValues = Record<Exclude<AskedField, 'productPrice' | 'stockQuantity'>, string>;

const EMPTY: FormValues = {
  productName: '',
  productCategory: CATEGORIES[0],
  productDescription: '',
  platform: '',
};

export const SUCCESS_MESSAGE = 'Product added successfully!';

/**
 * Add Product (spec sections 2 and 5): every field checked with the shared CreateProductBody schema
 * before sending, 1-4 images, sent as multipart with repeated `images`. The spec's form shows nothing
 * on failure; we show the server's message in red, since an admin needs to know why. Options and
 * variants (issue 31) go as JSON text fields, in place of the spec's price and stock; the platform
 * (issue 33) as the field `platform` when one is given.
 */
export function AddProductSection() {
  const [values, setValues] = useState<FormValues>(EMPTY);
  const [draft, setDraft] = useState(emptyDraft);
  const [problems, setProblems] = useState<ProductFormProblems>(NO_PROBLEMS);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [success, setSuccess] = useState(false);
  const images = useImageFiles(MAX_PRODUCT_IMAGES);
  const [addProduct, { isLoading }] = useAddProductMutation();

  useEffect(() => {
    if (!success) return;
    const timer = setTimeout(() => setSuccess(false), ADD_PRODUCT_SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [success]);

  const set = (key: keyof FormValues) => (value: string) => setValues((v) => ({ ...v, [key]: value }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSuccess(false);
    setRefusal(null);
    const checked = checkProductForm(CreateProductBody, { ...values, ...pricingToSend(draft) }, draft);
    const found = checked.problems ?? NO_PROBLEMS;
    const form = [...found.form];
    if (images.items.length === 0) form.push('Add at least one image');
    if (!checked.data || form.length > 0) {
      setProblems({ form, variants: found.variants });
      return;
    }
    setProblems(NO_PROBLEMS);
    // Issue 33: a platform left empty is none, and not sent at all.
    const body = productFormData(
      { ...checked.data, platform: checked.data.platform ?? undefined },
      images.items,
    );
    const refused = await sendOrRefusal(() => addProduct(body).unwrap());
    if (refused) {
      // The error lines below show the server's message.
      setRefusal(refused);
      return;
    }
    setValues(EMPTY);
    setDraft(emptyDraft());
    images.clear();
    setSuccess(true);
  }

  // A SKU already in use is about the variants: said beside them.
  const skuTaken = refusal?.code === 'SKU_TAKEN';
  const variantProblems = skuTaken ? [...problems.variants, refusal.message] : problems.variants;

  return (
    <form
      aria-label="New product"
      noValidate
      onSubmit={(e) => void onSubmit(e)}
      className="flex flex-col gap-4"
    >
      <Field label="Name" value={values.productName} onChange={set('productName')} required />
      <SelectField
        label="Category"
        value={values.productCategory}
        onChange={set('productCategory')}
        options={CATEGORIES}
        optionLabel={categoryTitle}
      />
      <PlatformField value={values.platform} onChange={set('platform')} />
      <TextAreaField
        label="Description"
        value={values.productDescription}
        onChange={set('productDescription')}
        required
      />
      <VariantsEditor draft={draft} onChange={setDraft} problems={variantProblems} />
      <p className="text-sm text-zinc-400">
        A new product starts with no rating: its stars and review count come from verified buyers&apos;
        reviews.
      </p>
      <ImageDropZone
        label="Images"
        max={MAX_PRODUCT_IMAGES}
        items={images.items}
        messages={images.messages}
        onAdd={images.add}
        onRemove={images.remove}
      />
      <ProblemList problems={problems.form} />
      {refusal && !skuTaken && (
        <p role="alert" className="text-red-500">
          {refusal.message}
        </p>
      )}
      <div role="status" aria-live="polite">
        {success && <p className="text-lime-300">{SUCCESS_MESSAGE}</p>}
      </div>
      <button type="submit" className="btn btn-primary self-start" disabled={isLoading}>
        {isLoading ? 'Adding...' : 'Add Product'}
      </button>
    </form>
  );
}
