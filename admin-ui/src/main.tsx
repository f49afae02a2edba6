import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { createBrowserNavigation } from './app/navigation.ts';
import './styles.css';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App navigation={createBrowserNavigation(window)} />
    </StrictMode>,
  );
}
