import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router';
import '@fontsource/press-start-2p/latin-400.css';
import './index.css';
import { AppRoutes } from './app/router';
import { restoring } from './app/sessionSlice';
import { SSR_STATE_ID, serverAnswers, setFirstRenderSeed, type ServerState } from './app/ssrState';
import { makeStore, type AppStore, type RootState } from './app/store';

const root = document.getElementById('root');
if (!root) throw new Error('No #root element in index.html');

/** Persistence (redux-persist) is not in the first download: it is loaded as the page starts. */
const startPersistence = (store: AppStore) =>
  import('./app/persist').then((persist) => persist.startPersistence(store));

function App({ store, serverState }: { store: AppStore; serverState?: RootState }) {
  return (
    <StrictMode>
      <Provider store={store} serverState={serverState}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </Provider>
    </StrictMode>
  );
}

const stateElement = document.getElementById(SSR_STATE_ID);
if (stateElement?.textContent) {
  // A catalogue page rendered on the server: hydrate it at once with the server's answers; the stored
  // user and cart are read back right after (the header then shows them).
  const server = JSON.parse(stateElement.textContent) as ServerState;
  const store = makeStore();
  store.dispatch(restoring());
  store.dispatch(serverAnswers(server.api));
  setFirstRenderSeed(server.seed);
  hydrateRoot(root, <App store={store} serverState={store.getState()} />);
  void startPersistence(store);
} else {
  // Every other page is drawn in the browser, once the stored user and cart are back.
  const store = makeStore();
  void startPersistence(store)
    .catch((error: unknown) => console.error('Could not restore the stored session', error))
    .then(() => createRoot(root).render(<App store={store} />));
}
