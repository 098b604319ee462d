import './app/zodConfig';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router';
import '@fontsource/press-start-2p/latin-400.css';
import './index.css';
import { PageReadyContext } from './app/ready';
import { AppRoutes, preloadPage } from './app/router';
import { restoring } from './app/sessionSlice';
import { SSR_STATE_ID, serverAnswers, type ServerState } from './app/ssrState';
import { handOverFavourites } from './features/catalog/favourites';
import { dynamicMiddleware, makeStore, type AppStore, type RootState } from './app/store';
import { cartSyncMiddleware } from './app/cartSyncLoader';

const root = document.getElementById('root');
if (!root) throw new Error('No #root element in index.html');

/** Persistence (redux-persist) is not in the first download: it is loaded as the page starts. */
const startPersistence = (store: AppStore) =>
  import('./app/persist').then((persist) => persist.startPersistence(store));

interface AppProps {
  store: AppStore;
  serverState?: RootState;
  /** Called once the routed page reacts (app/ready.tsx). */
  onReady?: () => void;
}

/** The browser's store: with the cart that follows a logged-in shopper's account (issue 34). */
function makeBrowserStore(): AppStore {
  const store = makeStore();
  dynamicMiddleware.addMiddleware(cartSyncMiddleware(store));
  return store;
}

const nothing = () => {};

function App({ store, serverState, onReady = nothing }: AppProps) {
  return (
    <StrictMode>
      <Provider store={store} serverState={serverState}>
        <PageReadyContext value={onReady}>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </PageReadyContext>
      </Provider>
    </StrictMode>
  );
}

/**
 * A page rendered on the server: hydrate it with the server's answers; the stored user and cart are
 * read back right after (the header then shows them). The page's own code comes first (a catalogue
 * page's, with the data layer, which takes the server's answers), so that hydration is one pass.
 * Not awaited at the module's top level: the chunks it loads import this module's chunk, and a top-level
 * await would have them wait for each other for ever.
 *
 * What the shopper did before this (issue 29) is taken from the page's loader in the same task as the
 * root is made. Fields they edited are read into the app's state as soon as the page is hydrated; their
 * taps are replayed once the stored cart and user are back too (an item added before that would be
 * overwritten by the stored cart).
 */
async function hydrate(container: HTMLElement, server: ServerState) {
  const store = makeBrowserStore();
  store.dispatch(restoring());
  // The replay of what was done before (issue 29) is a chunk of its own: the first download stays
  // under its 100 kB (issue 10), and this one comes beside the page's code.
  const [, dataLayer, early] = await Promise.all([
    preloadPage(location.pathname),
    server.api ? import('./app/api') : undefined,
    import('./app/earlyEvents'),
  ]);
  if (dataLayer && server.api) store.dispatch(serverAnswers(server.api));
  handOverFavourites(server.favourites);
  // As a transition, hydration yields to the browser every few milliseconds instead of holding the
  // main thread for the whole page (a phone's "total blocking time", issue 10).
  let hydrated = () => {};
  const ready = new Promise<void>((resolve) => (hydrated = resolve));
  const recorded = early.takeEarlyEvents();
  const onReady = () => void early.pickUpEarlyEdits(recorded).then(hydrated);
  startTransition(() => {
    hydrateRoot(container, <App store={store} serverState={store.getState()} onReady={onReady} />);
  });
  const persisted = startPersistence(store).catch((error: unknown) =>
    console.error('Could not restore the stored session', error),
  );
  await Promise.all([ready, persisted]);
  await early
    .replayEarlyActions(recorded)
    .catch((error: unknown) =>
      console.error('Could not replay what was done before the page started', error),
    );
}

/**
 * Every other page is drawn in the browser, once the stored user and cart are back and its code has
 * arrived: drawn once, with no "Loading page" that the page then pushes the footer away from.
 */
async function draw(container: HTMLElement) {
  const store = makeBrowserStore();
  await Promise.all([
    startPersistence(store).catch((error: unknown) =>
      console.error('Could not restore the stored session', error),
    ),
    preloadPage(location.pathname).catch(() => undefined),
  ]);
  createRoot(container).render(<App store={store} />);
}

const stateElement = document.getElementById(SSR_STATE_ID);
void (stateElement?.textContent
  ? hydrate(root, JSON.parse(stateElement.textContent) as ServerState)
  : draw(root));
