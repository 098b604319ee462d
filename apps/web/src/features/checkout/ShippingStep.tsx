import { useId, useState, type FormEvent } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { useGetMyOrdersQuery } from '../../app/ordersApi';
import { ErrorLine } from '../../ui/ErrorLine';
import { saveShippingAddress, type ShippingAddress } from '../../app/cartSlice';

export const FILL_ALL_FIELDS = 'Please fill out all the fields to continue.';

const FIELDS: { key: keyof ShippingAddress; label: string; autoComplete: string }[] = [
  { key: 'address', label: 'Address', autoComplete: 'street-address' },
  { key: 'city', label: 'City', autoComplete: 'address-level2' },
  { key: 'postalCode', label: 'Postal Code', autoComplete: 'postal-code' },
  { key: 'country', label: 'Country', autoComplete: 'country-name' },
];

function fieldsOf(address: ShippingAddress | null | undefined): ShippingAddress {
  return {
    address: address?.address ?? '',
    city: address?.city ?? '',
    postalCode: address?.postalCode ?? '',
    country: address?.country ?? '',
  };
}

/**
 * Step 1 (spec sections 2 and 5): all four fields are required, else the spec's alert text, shown
 * on the page rather than in a browser alert. Prefilled from the address saved in the cart; with none
 * (a new login: Sign Out forgets it, issue 30), from the account's own last order, which the server
 * keeps, unless the customer has started typing.
 */
export function ShippingStep({ onContinue }: { onContinue: () => void }) {
  const dispatch = useAppDispatch();
  const saved = useAppSelector((state) => state.cart.shippingAddress);
  const { data: orders } = useGetMyOrdersQuery(saved ? skipToken : undefined);
  const lastAddress = orders?.[0]?.shippingAddress;
  const id = useId();
  const [values, setValues] = useState<ShippingAddress>(() => fieldsOf(saved));
  const [edited, setEdited] = useState(false);
  const [fromLastOrder, setFromLastOrder] = useState(false);
  const [invalid, setInvalid] = useState(false);

  // The newest order's address arrives after the first render (the server's order: newest first).
  if (!saved && lastAddress && !edited && !fromLastOrder) {
    setFromLastOrder(true);
    setValues(fieldsOf(lastAddress));
  }

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
      {fromLastOrder && !edited && <p className="text-sm text-zinc-400">From your last order.</p>}
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
            onChange={(e) => {
              setEdited(true);
              setValues((v) => ({ ...v, [field.key]: e.target.value }));
            }}
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
