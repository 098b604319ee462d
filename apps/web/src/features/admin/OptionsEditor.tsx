import { useState, type KeyboardEvent } from 'react';
import { MAX_PRODUCT_OPTIONS } from '@pixel-vault/shared';
import { LabelledField } from '../../ui/LabelledField';
import { Field } from './fields';
import {
  addOption,
  addValues,
  optionLabel,
  removeOption,
  removeValue,
  renameOption,
  type VariantsDraft,
} from './variant-draft';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The product's options (issue 31): up to MAX_PRODUCT_OPTIONS, each a name and its values, typed
 * comma-separated into one field (added on Enter, Add, or leaving the field) and shown as chips, each
 * with its remove button.
 * Taking a value away takes the variants that have it; taking an option away merges the variants that
 * then read the same (the first of them stays). `announce` tells a screen reader what happened;
 * `focusLater` names the element (its `data-focus`) to focus once React has drawn the change.
 */
export function OptionsEditor({
  draft,
  onChange,
  announce,
  focusLater,
}: {
  draft: VariantsDraft;
  onChange: (draft: VariantsDraft) => void;
  announce: (message: string) => void;
  focusLater: (target: string) => void;
}) {
  // What is typed in each option's values field and not added yet, by option key.
  const [typed, setTyped] = useState<Record<string, string>>({});
  const full = draft.options.length >= MAX_PRODUCT_OPTIONS;

  function onAddOption() {
    const { draft: next, key } = addOption(draft);
    if (!key) return;
    onChange(next);
    focusLater(`${key}-name`);
  }

  function commitValues(key: string, label: string) {
    const text = typed[key] ?? '';
    if (!text.trim()) return;
    const { draft: next, added, repeated } = addValues(draft, key, text);
    setTyped((t) => ({ ...t, [key]: '' }));
    onChange(next);
    const said = [
      added.length > 0 ? `Added ${added.join(', ')} to ${label}.` : '',
      repeated.length > 0
        ? `${repeated.join(', ')} ${repeated.length === 1 ? 'is' : 'are'} already there.`
        : '',
    ];
    announce(said.filter(Boolean).join(' '));
  }

  function onValuesKey(event: KeyboardEvent<HTMLInputElement>, key: string, label: string) {
    if (event.key !== 'Enter') return;
    // Enter adds the values; it must not send the whole form.
    event.preventDefault();
    commitValues(key, label);
  }

  function onRemoveValue(key: string, label: string, value: string) {
    const { draft: next, removed } = removeValue(draft, key, value);
    onChange(next);
    announce(
      `Removed ${value} from ${label}${removed > 0 ? ` and ${plural(removed, 'variant')} with it` : ''}.`,
    );
    focusLater(`${key}-values`);
  }

  function onRemoveOption(key: string, label: string) {
    const { draft: next, removed } = removeOption(draft, key);
    onChange(next);
    announce(
      `Removed the option ${label}${removed > 0 ? `; ${plural(removed, 'variant')} that then read the same went too` : ''}.`,
    );
    focusLater('add-option');
  }

  return (
    <fieldset className="flex min-w-0 flex-col gap-3">
      <legend className="mb-1 text-sm font-semibold tracking-wide text-cyan-300 uppercase">Options</legend>
      {draft.options.length === 0 && (
        <p className="text-sm text-zinc-400">
          Sold in several forms (condition, region…)? Add an option: each combination of its values is a
          variant with its own SKU, price and stock.
        </p>
      )}
      {draft.options.length > 0 && (
        <ol className="flex flex-col gap-3">
          {draft.options.map((option, index) => {
            const label = optionLabel(draft, index);
            return (
              <li key={option.key}>
                <fieldset className="flex min-w-0 flex-col gap-3 border-2 border-zinc-700 p-3">
                  <legend className="px-1 text-sm font-semibold text-zinc-300">Option {index + 1}</legend>
                  <Field
                    label={`Option ${index + 1} name`}
                    value={option.name}
                    onChange={(name) => onChange(renameOption(draft, option.key, name))}
                    placeholder="Condition"
                    required
                    data-focus={`${option.key}-name`}
                  />
                  <LabelledField
                    label={`New values for ${label}`}
                    hint="Separate values with commas; Enter adds them."
                  >
                    {({ id, describedBy }) => (
                      <div className="flex gap-2">
                        <input
                          id={id}
                          aria-describedby={describedBy}
                          className="field min-w-0 flex-1"
                          value={typed[option.key] ?? ''}
                          placeholder="Loose, Complete in box"
                          onChange={(e) => setTyped((t) => ({ ...t, [option.key]: e.target.value }))}
                          onKeyDown={(e) => onValuesKey(e, option.key, label)}
                          // Values typed and left are added, not lost on the way to Generate.
                          onBlur={() => commitValues(option.key, label)}
                          data-focus={`${option.key}-values`}
                        />
                        <button
                          type="button"
                          className="btn btn-secondary shrink-0 px-3 py-2"
                          onClick={() => commitValues(option.key, label)}
                        >
                          Add <span className="sr-only">to {label}</span>
                        </button>
                      </div>
                    )}
                  </LabelledField>
                  {option.values.length > 0 ? (
                    <ul aria-label={`${label} values`} className="flex flex-wrap gap-2">
                      {option.values.map((value) => (
                        <li
                          key={value}
                          className="flex min-w-0 items-center border-2 border-zinc-600 bg-zinc-800 pl-3 text-sm text-zinc-100"
                        >
                          <span className="min-w-0 break-words">{value}</span>
                          <button
                            type="button"
                            aria-label={`Remove ${value} from ${label}`}
                            className="inline-flex h-10 w-10 shrink-0 items-center justify-center text-lg text-zinc-300 hover:text-red-400"
                            onClick={() => onRemoveValue(option.key, label, value)}
                          >
                            <span aria-hidden="true">×</span>
                          </button>
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <p className="text-sm text-zinc-400">No values yet.</p>
                  )}
                  <button
                    type="button"
                    className="btn btn-secondary self-start px-3 py-2"
                    onClick={() => onRemoveOption(option.key, label)}
                  >
                    Remove option <span className="sr-only">{label}</span>
                  </button>
                </fieldset>
              </li>
            );
          })}
        </ol>
      )}
      <button
        type="button"
        className="btn btn-secondary self-start"
        disabled={full}
        onClick={onAddOption}
        data-focus="add-option"
      >
        Add option
      </button>
      {full && <p className="text-sm text-zinc-400">A product has at most {MAX_PRODUCT_OPTIONS} options.</p>}
    </fieldset>
  );
}
