import { useId, useMemo, useState, type FormEvent } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { useGetMyOrdersQuery, useGetPayPalConfigQuery } from '../../app/ordersApi';
import { ErrorLine } from '../../ui/ErrorLine';
import { saveShippingAddress, type ShippingAddress } from '../../app/cartSlice';
import { countriesFor } from './countries';

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
 *
 * Country (issue 30) is a native select of the ISO 3166 countries by English name, the shop's own
 * (SHOP_COUNTRY, from GET /api/config) first and chosen until another is; the spec's `country` is the
 * name. A saved country that is not in the list (free text from older orders or other clients) is
 * kept as an option of its own, never silently replaced.
 */
export function ShippingStep({ onContinue }: { onContinue: () => void }) {
  const dispatch = useAppDispatch();
  const saved = useAppSelector((state) => state.cart.shippingAddress);
  const { data: orders } = useGetMyOrdersQuery(saved ? skipToken : undefined);
  const lastAddress = orders?.[0]?.shippingAddress;
  const { data: shopConfig } = useGetPayPalConfigQuery();
  const { shop, others } = useMemo(() => countriesFor(shopConfig?.shopCountry), [shopConfig?.shopCountry]);
  const id = useId();
  const [values, setValues] = useState<ShippingAddress>(() => fieldsOf(saved));
  // The country the address came with, offered even when it is not in the list.
  const [keptCountry, setKeptCountry] = useState(() => saved?.country ?? '');
  const [edited, setEdited] = useState(false);
  const [fromLastOrder, setFromLastOrder] = useState(false);
  const [invalid, setInvalid] = useState(false);

  // The newest order's address arrives after the first render (the server's order: newest first).
  if (!saved && lastAddress && !edited && !fromLastOrder) {
    setFromLastOrder(true);
    setValues(fieldsOf(lastAddress));
    setKeptCountry(lastAddress.country);
  }

  // Nothing chosen or saved: the shop's own country.
  const country = values.country || shop.name;
  const keptUnlisted =
    keptCountry !== '' && keptCountry !== shop.name && !others.some((c) => c.name === keptCountry);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed: ShippingAddress = {
      address: values.address.trim(),
      city: values.city.trim(),
      postalCode: values.postalCode.trim(),
      country: country.trim(),
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
          {field.key === 'country' ? (
            <select
              id={`${id}-${field.key}`}
              name={field.key}
              autoComplete={`shipping ${field.autoComplete}`}
              required
              value={country}
              onChange={(e) => {
                setEdited(true);
                setValues((v) => ({ ...v, country: e.target.value }));
              }}
              className="field w-full"
            >
              {keptUnlisted && <option value={keptCountry}>{keptCountry}</option>}
              <option value={shop.name}>{shop.name}</option>
              <optgroup label="All countries">
                {others.map((c) => (
                  <option key={c.code} value={c.name}>
                    {c.name}
                  </option>
                ))}
              </optgroup>
            </select>
          ) : (
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
          )}
        </div>
      ))}
      {invalid && <ErrorLine prefix="" message={FILL_ALL_FIELDS} />}
      <button type="submit" className="btn btn-primary self-start">
        Continue to Payment
      </button>
    </form>
  );
}
