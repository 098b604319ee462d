import { EARLY_EVENTS_KEY } from '@pixel-vault/shared';

/**
 * What a shopper did on a server-rendered page before the app started (issue 29): recorded by the page's
 * inline loader (packages/shared/src/entry-loader.ts), taken here right before React hydrates the page,
 * and replayed once it has, in the order it happened. docs/decisions/006-taps-before-the-app-starts.md.
 */

/** An interaction the loader recorded before the app started. */
export interface EarlyEvent {
  /** `change` also stands for a click on a checkbox or radio (its state is picked up). */
  type: 'click' | 'submit' | 'input' | 'change';
  target: Element;
  /** Child indexes from <html> down to `target`, as the page was when it was recorded. */
  path: number[];
}

/** What the loader leaves on the window. */
interface EarlyEventRecorder {
  stop(): EarlyEvent[];
}

/**
 * Ends the loader's recording and answers what it recorded (nothing on a page drawn in the browser).
 * Call it right before `hydrateRoot`, in the same task: from then on React's root hears every event.
 */
export function takeEarlyEvents(): EarlyEvent[] {
  const recorder = (window as unknown as Record<string, EarlyEventRecorder | undefined>)[EARLY_EVENTS_KEY];
  return recorder?.stop() ?? [];
}

/** The recorded element, or the one at its place if hydration replaced it (a mismatch is drawn again). */
function find(event: EarlyEvent): Element | undefined {
  if (event.target.isConnected) return event.target;
  let node: Element | undefined = document.documentElement;
  for (const index of event.path) node = node?.children[index];
  return node?.tagName === event.target.tagName ? node : undefined;
}

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const isField = (element: Element): element is Field =>
  element instanceof HTMLInputElement ||
  element instanceof HTMLTextAreaElement ||
  element instanceof HTMLSelectElement;

const isToggle = (field: Field): field is HTMLInputElement =>
  field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');

/** A field whose shown state differs from what the server rendered (typed or autofilled before the app). */
function changedSinceRender(field: Field): boolean {
  if (isToggle(field)) return field.checked !== field.defaultChecked;
  if (field instanceof HTMLSelectElement)
    return [...field.options].some((o) => o.selected !== o.defaultSelected);
  if (field instanceof HTMLInputElement && /^(button|submit|reset|image|hidden|file)$/.test(field.type))
    return false;
  return field.value !== field.defaultValue;
}

/** What a field shows: its text, whether it is checked, or its chosen option. */
type Shown = string | boolean;

const shownIn = (field: Field): Shown => (isToggle(field) ? field.checked : field.value);

/**
 * Tells React that `field` shows `shown`. Hydration keeps what the shopper typed on screen but records
 * it as the field's known value, so a plain `input` event would look like no change: the known value is
 * set to the rendered one first (through the element's own property, which React watches), and the
 * shown one put back beside it (through the prototype's, which it does not). A select has no known
 * value; its `change` is enough. A checkbox or radio reports through `click`: a plain Event, not a
 * MouseEvent, so the browser does not toggle it again. `shown` is passed in, read before the first
 * field was picked up: React renders a controlled field again at each of their events, showing its state.
 */
function pickUp(field: Field, shown: Shown) {
  if (field instanceof HTMLSelectElement) {
    field.value = String(shown);
    field.dispatchEvent(new Event('change', { bubbles: true }));
  } else if (isToggle(field)) {
    field.checked = !shown;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'checked')?.set?.call(field, shown);
    field.dispatchEvent(new Event('click', { bubbles: true }));
  } else {
    const text = String(shown);
    const selection = document.activeElement === field ? selectionOf(field) : undefined;
    field.value = field.defaultValue === text ? '' : field.defaultValue;
    const proto =
      field instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(field, text);
    if (selection) field.setSelectionRange(selection[0], selection[1]);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
}

/** Where the caret is in a field that has one (a number field has none). */
function selectionOf(field: HTMLInputElement | HTMLTextAreaElement): [number, number] | undefined {
  try {
    const { selectionStart, selectionEnd } = field;
    return selectionStart === null || selectionEnd === null ? undefined : [selectionStart, selectionEnd];
  } catch {
    return undefined;
  }
}

/**
 * Tells React what every field edited before the app started shows: those the loader heard, then any
 * other that shows something else than the server rendered (autofill, a change no event announced).
 * What they show is read at once, as soon as the page is hydrated and before anything renders it again
 * (a controlled field that renders shows its state, and what was typed would be gone from the screen);
 * React is told a task later, once it has finished its work on the hydration (an event dispatched
 * while it runs the page's effects reached its handlers but changed nothing).
 */
export function pickUpEarlyEdits(events: EarlyEvent[], root: ParentNode = document): Promise<void> {
  const edited = new Set<Field>();
  for (const event of events) {
    const element = event.type === 'input' || event.type === 'change' ? find(event) : undefined;
    if (element && isField(element)) edited.add(element);
  }
  for (const field of root.querySelectorAll('input, textarea, select')) {
    if (isField(field) && changedSinceRender(field)) edited.add(field);
  }
  // A radio is told when it was chosen; the one it took over from follows (React reads the group).
  const shown = [...edited]
    .filter((field) => !(field instanceof HTMLInputElement && field.type === 'radio' && !field.checked))
    .map((field) => [field, shownIn(field)] as const);
  return nextTask().then(() => {
    for (const [field, value] of shown) pickUp(field, value);
  });
}

/**
 * Clicks `element` again: through the control it is part of (a tap often lands on a button's icon, an
 * SVG element, which has no click()), as the browser's click did.
 */
function clickOn(element: Element) {
  const control = element.closest('a[href], button, input, select, textarea, summary, [role="button"]');
  const target = control ?? element;
  if (target instanceof HTMLElement) target.click();
  else target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, view: window }));
}

/** One task later: React has rendered what the last replayed event changed before the next reads it. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Replays the taps and held forms of `events` on the hydrated page, each once, in order (after
 * `pickUpEarlyEdits`: a quantity typed before "Add to Cart" counts). Then the page no longer says that
 * something waits.
 */
export async function replayEarlyActions(events: EarlyEvent[]): Promise<void> {
  try {
    for (const event of events) {
      const element = event.type === 'click' || event.type === 'submit' ? find(event) : undefined;
      if (event.type === 'click' && element) clickOn(element);
      else if (event.type === 'submit' && element instanceof HTMLFormElement) element.requestSubmit();
      else continue;
      await nextTask();
    }
  } finally {
    document.documentElement.removeAttribute('data-pending');
  }
}
