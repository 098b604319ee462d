import { useId, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { ErrorLine } from '../../ui/ErrorLine';
import { saveShippingAddress, type ShippingAddress } from '../../app/cartSlice';

export const FILL_ALL_FIELDS = 'Please fill out all the fields to continue.';

const FIELDS: { key: keyof ShippingAddress; label: string; autoComplete: string }[] = [
  { key: 'address', label: 'Address', autoComplete: 'street-address' },
  { key: 'city', label: 'City', autoComplete: 'address-level2' },
  { key: 'postalCode', label: 'Postal Code', autoComplete: 'postal-code' },
  { key: 'country', label: 'Country', autoComplete: 'country-name' },
];

/**
 * Step 1 (spec sections 2 and 5): all four fields are required, else the spec's alert text, shown
 * on the page rather than in a browser alert. Prefilled from the address saved in the cart.
 */
export function ShippingStep({ onContinue }: { onContinue: () => void }) {
  const dispatch = useAppDispatch();
  const saved = useAppSelector((state) => state.cart.shippingAddress);
  const id = useId();
  const [values, setValues] = useState<ShippingAddress>({
    address: saved?.address ?? '',
    city: saved?.city ?? '',
    postalCode: saved?.postalCode ?? '',
    country: saved?.country ?? '',
  });
  const [invalid, setInvalid] = useState(false);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed: ShippingAddress = {
      address: values.address.trim(),
      city: values.city.trim(),
      postalCode: values.postalCode.trim(),
      country: values.country.trim(),
    };
    if (Object.values(trimmed).some((v) => v === '')) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    dispatch(saveShippingAddress(trimmed));
    onContinue();
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="pixel-heading text-sm text-cyan-300">
        Shipping Address
      </h2>
      {FIELDS.map((field) => (
        <div key={field.key} className="flex flex-col gap-1">
          <label htmlFor={`${id}-${field.key}`} className="text-sm font-semibold text-zinc-300">
            {field.label}
          </label>
          <input
            id={`${id}-${field.key}`}
            name={field.key}
            autoComplete={`shipping ${field.autoComplete}`}
            maxLength={200}
            required
            value={values[field.key]}
            onChange={(e) => setValues((v) => ({ ...v, [field.key]: e.target.value }))}
            className="field w-full"
          />
        </div>
      ))}
      {invalid && <ErrorLine prefix="" message={FILL_ALL_FIELDS} />}
      <button type="submit" className="btn btn-primary self-start">
        Continue to Payment
      </button>
    </form>
  );
}
