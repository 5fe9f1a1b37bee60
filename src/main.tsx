import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { loadDemo } from './runtime/studio';
import './ui/styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// First open with no file given: the demo session (GSM8K rollouts scored by the default reward).
void loadDemo();
