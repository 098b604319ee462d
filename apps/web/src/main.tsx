import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { PersistGate } from 'redux-persist/integration/react';
import { BrowserRouter } from 'react-router';
import '@fontsource/press-start-2p/latin-400.css';
import './index.css';
import { AppRoutes } from './app/router';
import { persistor, store } from './app/store';
import { Spinner } from './ui/Spinner';

const root = document.getElementById('root');
if (!root) throw new Error('No #root element in index.html');

createRoot(root).render(
  <StrictMode>
    <Provider store={store}>
      <PersistGate loading={<Spinner label="Loading Pixel Vault" />} persistor={persistor}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </PersistGate>
    </Provider>
  </StrictMode>,
);
