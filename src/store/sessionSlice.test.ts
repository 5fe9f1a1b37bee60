import { describe, expect, it } from 'vitest';
import { createStudioStore } from './index';

describe('session slice', () => {
  it('starts with no session, no data and data version 0', () => {
    const s = createStudioStore().getState();
    expect([s.sessionId, s.sessionName, s.dataSource, s.dataVersion, s.origin, s.pendingFile, s.sessionMessage]).toEqual([
      null,
      '',
      { kind: 'none' },
      0,
      null,
      null,
      null,
    ]);
  });

  it('setDataSource bumps the data version only when asked (an import, not a restore)', () => {
    const store = createStudioStore();
    store.getState().setDataSource({ kind: 'file' }, true);
    store.getState().setDataSource({ kind: 'url', url: 'http://localhost/a.jsonl' }, true);
    expect([store.getState().dataSource, store.getState().dataVersion]).toEqual([{ kind: 'url', url: 'http://localhost/a.jsonl' }, 2]);
    store.getState().setDataSource({ kind: 'demo' }, false);
    expect([store.getState().dataSource, store.getState().dataVersion]).toEqual([{ kind: 'demo' }, 2]);
    store.getState().setDataVersion(7);
    expect(store.getState().dataVersion).toBe(7);
  });

  it('holds the session, the origin of its code, the file a link waits for, and a message', () => {
    const store = createStudioStore();
    const st = store.getState();
    st.setSession({ sessionId: 's1', sessionName: 'GSM8K demo' });
    st.setSessionName('renamed');
    st.setOrigin({ from: 'link', at: 5, run: null });
    st.setPendingFile({ name: 'big.jsonl', rows: 100, size: 2000, sha256: 'ab'.repeat(32) });
    st.setSessionMessage({ kind: 'info', text: 'big.jsonl matches the link (SHA-256 checked).' });
    const s = store.getState();
    expect([s.sessionId, s.sessionName, s.origin, s.pendingFile?.name, s.sessionMessage?.kind]).toEqual([
      's1',
      'renamed',
      { from: 'link', at: 5, run: null },
      'big.jsonl',
      'info',
    ]);
    st.setOrigin(null);
    st.setPendingFile(null);
    st.setSessionMessage(null);
    expect([store.getState().origin, store.getState().pendingFile, store.getState().sessionMessage]).toEqual([null, null, null]);
  });
});
