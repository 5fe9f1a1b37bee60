import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { startStudio } from './app/sessions/start';
import './ui/styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// A share link or ?data= opens as a new session; else the last session comes back; on the first open, the demo
// session (GSM8K rollouts scored by the default reward).
void startStudio();
