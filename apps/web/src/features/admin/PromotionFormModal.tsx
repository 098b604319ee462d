import { useId, useState, type FormEvent } from 'react';
import {
  CATEGORIES,
  CreatePromotionBody,
  DISCOUNT_KINDS,
  PROMOTION_KINDS,
  UpdatePromotionBody,
  categoryTitle,
  type Promotion,
  type PromotionKind,
} from '@pixel-vault/shared';
import { Modal } from '../../ui/Modal';
import { useCreatePromotionMutation, useUpdatePromotionMutation } from './api';
import { Field, SelectField } from './fields';
import { ProductPicker } from './ProductPicker';
import {
  createInput,
  EMPTY_PROMOTION_FORM,
  formFromPromotion,
  KIND_LABELS,
  promotionName,
  shapeProblem,
  updateInput,
  valueProblem,
  type PromotionFormValues,
} from './promotion-form';
import { validateAndSend } from './submit';
import { ProblemList } from '../../ui/ProblemList';

const legendClass = 'mb-1 text-sm font-semibold tracking-wide text-cyan-300 uppercase';

/** The browser's time zone, named in the hint of the dates ("America/New_York"). */
function timeZoneName(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return 'your time zone';
  }
}

/**
 * Create (no `promotion`) or edit a discount code or a scheduled sale (issue 32), in a dialog. A sale
 * has no code, minimum subtotal or limits (hidden for it), and needs a start and an end; a code stays a
 * code and a sale a sale (the server refuses the change). The values are checked with the shared
 * schemas before they are sent, and the server's refusal ('A promotion with this code already exists')
 * is shown in the form. An edit sends only the fields that changed. `onSaved` gets the promotion as the
 * server answered it; the dialog gives the focus back to the button that opened it.
 */
export function PromotionFormModal({
  promotion,
  onClose,
  onSaved,
}: {
  promotion?: Promotion;
  onClose: () => void;
  onSaved: (saved: Promotion, how: 'created' | 'saved') => void;
}) {
  const [values, setValues] = useState<PromotionFormValues>(() =>
    promotion ? formFromPromotion(promotion) : EMPTY_PROMOTION_FORM,
  );
  const [problems, setProblems] = useState<string[]>([]);
  const [createPromotion, { isLoading: creating }] = useCreatePromotionMutation();
  const [updatePromotion, { isLoading: updating }] = useUpdatePromotionMutation();
  const titleId = useId();
  const windowHintId = useId();
  const categoriesHintId = useId();
  const set =
    <K extends keyof PromotionFormValues>(key: K) =>
    (value: PromotionFormValues[K]) =>
      setValues((v) => ({ ...v, [key]: value }));
  const busy = creating || updating;

  function toggleCategory(slug: string, checked: boolean) {
    setValues((v) => ({
      ...v,
      // Kept in the shop's order, whichever box was ticked first.
      categories: CATEGORIES.filter((c) => (c === slug ? checked : v.categories.includes(c))),
    }));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblems([]);
    let saved: Promotion | undefined;
    if (!promotion) {
      const found = await validateAndSend(CreatePromotionBody, createInput(values), async (body) => {
        saved = await createPromotion(body).unwrap();
      });
      if (found.length > 0 || !saved) return setProblems(found);
      onSaved(saved, 'created');
      return;
    }
    const input = updateInput(values, promotion);
    if (Object.keys(input).length === 0) return onClose();
    const problem = (input.value !== undefined ? valueProblem(values) : undefined) ?? shapeProblem(values);
    if (problem) return setProblems([problem]);
    const found = await validateAndSend(UpdatePromotionBody, input, async (body) => {
      saved = await updatePromotion({ id: promotion._id, body }).unwrap();
    });
    if (found.length > 0 || !saved) return setProblems(found);
    onSaved(saved, 'saved');
  }

  const sale = values.kind === 'sale';
  const percent = values.kind === 'percentage' || sale;
  const unit = percent ? '%' : '$';
  const maxPercent = sale ? '99' : '100';
  // A new promotion may be of any kind; an edited one keeps to codes, or stays a sale.
  const kinds: readonly PromotionKind[] = !promotion ? PROMOTION_KINDS : sale ? ['sale'] : DISCOUNT_KINDS;

  return (
    <Modal onClose={onClose} labelledBy={titleId}>
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-5">
        <h3
          id={titleId}
          className={`pixel-heading text-base text-lime-300 ${promotion?.code ? 'break-all' : 'break-words'}`}
        >
          {promotion ? `Edit ${promotionName(promotion)}` : 'New Promotion'}
        </h3>
        {!sale && (
          <Field
            label="Code"
            value={values.code}
            onChange={set('code')}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            hint="3 to 32 letters, digits, - or _ (kept in capitals)."
            required
          />
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Kind"
            value={values.kind}
            onChange={(kind) => set('kind')(kind as PromotionKind)}
            options={kinds}
            optionLabel={(kind) => KIND_LABELS[kind as PromotionKind]}
          />
          {values.kind !== 'free_shipping' && (
            <Field
              label={`Value (${unit})`}
              type="number"
              inputMode="decimal"
              min={percent ? '1' : '0.01'}
              max={percent ? maxPercent : undefined}
              step={percent ? '1' : '0.01'}
              value={values.value}
              onChange={set('value')}
              hint={
                sale
                  ? "A whole number from 1 to 99: the percent off the shop's prices while the sale runs."
                  : percent
                    ? 'A whole number from 1 to 100.'
                    : 'Dollars off.'
              }
              required
            />
          )}
        </div>
        {!sale && (
          <Field
            label="Minimum subtotal ($)"
            type="number"
            inputMode="decimal"
            min="0"
            step="0.01"
            value={values.minSubtotal}
            onChange={set('minSubtotal')}
            hint="Optional: the subtotal of the lines the code applies to must reach it."
          />
        )}
        <fieldset className="flex min-w-0 flex-col gap-3" aria-describedby={windowHintId}>
          <legend className={legendClass}>When</legend>
          <p id={windowHintId} className="text-xs text-zinc-400">
            {sale
              ? `Required: the sale prices show from the start to the end. Times are in your time zone (${timeZoneName()}).`
              : `Optional. Times are in your time zone (${timeZoneName()}). No start: from now; no end: until deactivated.`}
          </p>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label="Starts"
              type="datetime-local"
              value={values.startsAt}
              onChange={set('startsAt')}
              required={sale}
            />
            <Field
              label="Ends"
              type="datetime-local"
              value={values.endsAt}
              onChange={set('endsAt')}
              required={sale}
            />
          </div>
        </fieldset>
        {!sale && (
          <fieldset className="flex min-w-0 flex-col gap-3">
            <legend className={legendClass}>Limits</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field
                label="Usage limit"
                type="number"
                inputMode="numeric"
                min="1"
                step="1"
                value={values.usageLimit}
                onChange={set('usageLimit')}
                hint="Orders in all. Empty: no limit."
              />
              <Field
                label="Uses per customer"
                type="number"
                inputMode="numeric"
                min="1"
                step="1"
                value={values.perCustomerLimit}
                onChange={set('perCustomerLimit')}
                hint="Empty: no limit."
              />
            </div>
          </fieldset>
        )}
        <fieldset className="flex min-w-0 flex-col gap-2" aria-describedby={categoriesHintId}>
          <legend className={legendClass}>Categories</legend>
          <p id={categoriesHintId} className="text-xs text-zinc-400">
            {sale
              ? "Optional: the sale is on these categories' products only."
              : "Optional: the discount comes off these categories' lines only."}
          </p>
          <div className="grid gap-2 sm:grid-cols-2">
            {CATEGORIES.map((slug) => (
              <label key={slug} className="flex items-center gap-3 text-zinc-100">
                <input
                  type="checkbox"
                  className="h-5 w-5 accent-lime-400"
                  checked={values.categories.includes(slug)}
                  onChange={(event) => toggleCategory(slug, event.target.checked)}
                />
                {categoryTitle(slug)}
              </label>
            ))}
          </div>
        </fieldset>
        <ProductPicker
          value={values.products}
          onChange={set('products')}
          hint={
            sale
              ? 'Optional. With products or categories chosen, the sale is on those only; with none, on the whole shop.'
              : undefined
          }
        />
        <label className="flex items-center gap-3 text-zinc-100">
          <input
            type="checkbox"
            className="h-5 w-5 accent-lime-400"
            checked={values.active}
            onChange={(event) => set('active')(event.target.checked)}
          />
          Active
        </label>
        <ProblemList problems={problems} />
        <div className="flex flex-wrap justify-end gap-3">
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {promotion ? 'Save Changes' : 'Create Promotion'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
