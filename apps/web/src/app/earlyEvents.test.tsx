import { act, useState } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EARLY_EVENTS_KEY, ENTRY_LOADER } from '@pixel-vault/shared';
import { pickUpEarlyEdits, replayEarlyActions, takeEarlyEvents } from './earlyEvents';

/** A page with one of each kind of control a rendered page has, and what each did, on screen. */
function Shop() {
  const [added, setAdded] = useState(0);
  const [qty, setQty] = useState('1');
  const [text, setText] = useState('');
  const [gift, setGift] = useState(false);
  const [sort, setSort] = useState('newest');
  const [sent, setSent] = useState(0);
  return (
    <div>
      <button type="button" onClick={() => setAdded((n) => n + Number(qty))}>
        Add
      </button>
      <input aria-label="Quantity" type="number" value={qty} onChange={(e) => setQty(e.target.value)} />
      <input aria-label="Search" value={text} onChange={(e) => setText(e.target.value)} />
      <input aria-label="Gift" type="checkbox" checked={gift} onChange={(e) => setGift(e.target.checked)} />
      <select aria-label="Sort" value={sort} onChange={(e) => setSort(e.target.value)}>
        <option value="newest">Newest</option>
        <option value="lowest">Lowest</option>
      </select>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setSent((n) => n + 1);
        }}
      >
        <button type="submit">Send</button>
      </form>
      <a href="/elsewhere">Elsewhere</a>
      <output>{`added ${added}, text ${text}, gift ${gift}, sort ${sort}, sent ${sent}`}</output>
    </div>
  );
}

const shown = () => document.querySelector('output')?.textContent;
const get = <T extends Element>(selector: string) => document.querySelector<T>(selector)!;

function type(field: HTMLInputElement, value: string) {
  field.value = value;
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/** What the window saw of each click on a link after the loader had its say (and no navigation). */
const linkClicks: boolean[] = [];
function noNavigation(event: Event) {
  if ((event.target as Element).closest?.('a')) {
    linkClicks.push(event.defaultPrevented);
    event.preventDefault();
  }
}

let root: Root | undefined;

beforeEach(() => {
  // The page as the server sends it, with its loader run (jsdom runs no inline script by itself).
  document.body.innerHTML = `<div id="root">${renderToString(<Shop />)}</div>`;
  const script = document.createElement('script');
  script.dataset.entry = '/assets/index-test.js';
  Object.defineProperty(document, 'currentScript', { value: script, configurable: true });
  (0, eval)(ENTRY_LOADER);
  addEventListener('click', noNavigation);
  linkClicks.length = 0;
});

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  removeEventListener('click', noNavigation);
  takeEarlyEvents();
  delete (window as unknown as Record<string, unknown>)[EARLY_EVENTS_KEY];
  document.documentElement.removeAttribute('data-pending');
});

/** As main.tsx does it: the recording taken, the page hydrated, then what was recorded replayed. */
async function start() {
  const early = takeEarlyEvents();
  await act(async () => {
    root = hydrateRoot(document.getElementById('root')!, <Shop />);
  });
  await act(() => pickUpEarlyEdits(early));
  await act(() => replayEarlyActions(early));
}

describe('taps and typing before the app starts (issue 29)', () => {
  it('are each replayed once after hydration, in order, and the page says one is waiting', async () => {
    const quantity = get<HTMLInputElement>('[aria-label="Quantity"]');
    type(quantity, '3');
    get<HTMLButtonElement>('button[type="button"]').click();
    expect(document.documentElement.hasAttribute('data-pending')).toBe(true);
    type(get<HTMLInputElement>('[aria-label="Search"]'), 'mario');
    get<HTMLInputElement>('[aria-label="Gift"]').click();
    const sort = get<HTMLSelectElement>('select');
    sort.value = 'lowest';
    sort.dispatchEvent(new Event('change', { bubbles: true }));
    get<HTMLButtonElement>('button[type="submit"]').click();

    await start();
    // The quantity typed before the tap counts: the replay keeps the order.
    expect(shown()).toBe('added 3, text mario, gift true, sort lowest, sent 1');
    expect(get<HTMLInputElement>('[aria-label="Gift"]').checked).toBe(true);
    expect(document.documentElement.hasAttribute('data-pending')).toBe(false);

    // From now on React hears the page itself; nothing is recorded, nothing replayed twice.
    get<HTMLButtonElement>('button[type="button"]').click();
    await act(async () => {});
    expect(shown()).toBe('added 6, text mario, gift true, sort lowest, sent 1');
  });

  it('picks up a field changed without an event the loader heard (autofill)', async () => {
    get<HTMLInputElement>('[aria-label="Search"]').value = 'zelda';
    await start();
    expect(shown()).toContain('text zelda');
    expect(shown()).toContain('added 0');
  });

  it('leaves a link to the browser, unless an earlier tap is waiting: then it follows that tap', async () => {
    get<HTMLAnchorElement>('a').click();
    expect(linkClicks).toEqual([false]);
    get<HTMLButtonElement>('button[type="button"]').click();
    get<HTMLAnchorElement>('a').click();
    expect(linkClicks).toEqual([false, true]);
    await start();
    // The held link is clicked again, after the tap, and left to the browser (or the app) this time.
    expect(linkClicks).toEqual([false, true, false]);
    expect(shown()).toContain('added 1');
  });

  it('does nothing on a page the loader did not start (drawn in the browser)', async () => {
    delete (window as unknown as Record<string, unknown>)[EARLY_EVENTS_KEY];
    expect(takeEarlyEvents()).toEqual([]);
    await start();
    expect(shown()).toBe('added 0, text , gift false, sort newest, sent 0');
  });
});
