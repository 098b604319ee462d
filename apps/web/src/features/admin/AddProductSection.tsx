import { useEffect, useState, type FormEvent } from 'react';
import {
  ADD_PRODUCT_SUCCESS_MS,
  CATEGORIES,
  categoryTitle,
  CreateProductFields,
  MAX_PRODUCT_IMAGES,
} from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ImageDropZone, useImageFiles } from '../../ui/ImageDropZone';
import { useAddProductMutation } from './api';
import { Field, SelectField, TextAreaField } from './fields';

/**
 * The fields the form asks for. Rating and review count are not among them (issue 14): they are
 * computed from verified buyers' reviews; the server still accepts them from spec clients and ignores them.
 */
type AskedField = Exclude<keyof CreateProductFields, 'productRating' | 'reviewCount'>;
type FormValues = Record<AskedField, string>;

const EMPTY: FormValues = {
  productName: '',
  productCategory: CATEGORIES[0],
  productDescription: '',
  productPrice: '',
  stockQuantity: '',
};

export const SUCCESS_MESSAGE = 'Product added successfully!';

/**
 * Add Product (spec sections 2 and 5): every field checked with the shared CreateProductFields schema
 * before sending, 1-4 images, sent as multipart with repeated `images`. The spec's form shows nothing
 * on failure; we show the server's message in red, since an admin needs to know why.
 */
export function AddProductSection() {
  const [values, setValues] = useState<FormValues>(EMPTY);
  const [errors, setErrors] = useState<string[]>([]);
  const [success, setSuccess] = useState(false);
  const images = useImageFiles(MAX_PRODUCT_IMAGES);
  const [addProduct, { isLoading, error, reset }] = useAddProductMutation();

  useEffect(() => {
    if (!success) return;
    const timer = setTimeout(() => setSuccess(false), ADD_PRODUCT_SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [success]);

  const set = (key: keyof FormValues) => (value: string) => setValues((v) => ({ ...v, [key]: value }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSuccess(false);
    reset();
    const parsed = CreateProductFields.safeParse(values);
    const problems = parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
    if (images.items.length === 0) problems.push('Add at least one image');
    if (!parsed.success || problems.length > 0) {
      setErrors(problems);
      return;
    }
    setErrors([]);
    const body = new FormData();
    for (const item of images.items) body.append('images', item.file, item.file.name);
    for (const [key, value] of Object.entries(parsed.data)) {
      if (value !== undefined) body.append(key, String(value));
    }
    try {
      await addProduct(body).unwrap();
      setValues(EMPTY);
      images.clear();
      setSuccess(true);
    } catch {
      // The error line below shows the server's message.
    }
  }

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
      <TextAreaField
        label="Description"
        value={values.productDescription}
        onChange={set('productDescription')}
        required
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Price"
          type="number"
          inputMode="decimal"
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
      </div>
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
      {errors.length > 0 && (
        <ul role="alert" className="text-red-500">
          {errors.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
      {error && (
        <p role="alert" className="text-red-500">
          {errorMessage(error)}
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
