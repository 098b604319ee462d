import { useCallback, useEffect, useRef, useState } from 'react';
import { Field } from './fields';
import { OptionsEditor } from './OptionsEditor';
import { hasOptions, updateRow, type VariantsDraft } from './variant-draft';
import { TRADE_IN_CREDIT_HINT, TRADE_IN_CREDIT_LABEL, VariantsTable } from './VariantsTable';
import { ProblemList } from '../../ui/ProblemList';

/**
 * Price, stock, options and variants of Add Product and Update Product (issue 31). Without options the
 * form is as it always was, the spec's Price and Stock fields (the product's one variant), and its
 * trade-in credit (issue 35); with options, the variants table takes their place. `problems` are the editor's own messages (the
 * shared schemas' and `variantsProblem`'s, or the server's SKU conflict), shown beside it.
 */
export function VariantsEditor({
  draft,
  onChange,
  problems,
}: {
  draft: VariantsDraft;
  onChange: (draft: VariantsDraft) => void;
  problems: readonly string[];
}) {
  const rootRef = useRef<HTMLDivElement>(null);
  const [notice, setNotice] = useState('');
  const pendingFocus = useRef<string | null>(null);

  // After a change that moves, adds or removes controls, the focus goes where the change left the
  // admin (a removed button would otherwise drop it on the page).
  useEffect(() => {
    const target = pendingFocus.current;
    if (!target) return;
    pendingFocus.current = null;
    rootRef.current?.querySelector<HTMLElement>(`[data-focus="${target}"]`)?.focus();
  });

  const focusLater = useCallback((target: string) => {
    pendingFocus.current = target;
  }, []);

  const first = draft.rows[0];
  const setFirst = (key: 'price' | 'stockQuantity' | 'tradeInCredit') => (value: string) => {
    if (first) onChange(updateRow(draft, first.key, { [key]: value }));
  };

  return (
    <div ref={rootRef} className="@container flex min-w-0 flex-col gap-4">
      {!hasOptions(draft) && (
        <div className="grid gap-4 @md:grid-cols-2">
          <Field
            label="Price"
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0"
            value={first?.price ?? ''}
            onChange={setFirst('price')}
            required
          />
          <Field
            label="Stock Quantity"
            type="number"
            step="1"
            min="0"
            value={first?.stockQuantity ?? ''}
            onChange={setFirst('stockQuantity')}
            required
          />
          <Field
            label={TRADE_IN_CREDIT_LABEL}
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0"
            value={first?.tradeInCredit ?? ''}
            onChange={setFirst('tradeInCredit')}
            hint={TRADE_IN_CREDIT_HINT}
          />
        </div>
      )}
      <OptionsEditor draft={draft} onChange={onChange} announce={setNotice} focusLater={focusLater} />
      {hasOptions(draft) && (
        <VariantsTable draft={draft} onChange={onChange} announce={setNotice} focusLater={focusLater} />
      )}
      <div role="status" aria-live="polite" className="text-sm text-zinc-300 empty:-mt-4">
        {notice}
      </div>
      <ProblemList problems={problems} />
    </div>
  );
}
