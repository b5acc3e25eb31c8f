/** The daemon connection as React sees it: the link, its state, and the current backend. */
import { createContext, useContext, useEffect, useState } from 'react';
import type { TuiBackend } from '../backend.js';
import type { DaemonLink, LinkState } from '../daemon-link.js';

export const LinkContext = createContext<DaemonLink | null>(null);

export function useLink(): DaemonLink {
  const link = useContext(LinkContext);
  if (!link) throw new Error('useLink outside <LinkContext.Provider>');
  return link;
}

export function useLinkState(): LinkState {
  const link = useLink();
  const [state, setState] = useState<LinkState>(link.state);
  useEffect(() => {
    setState(link.state);
    return link.subscribe(setState);
  }, [link]);
  return state;
}

/** The connected backend, or null while (re)connecting. */
export function useBackend(): TuiBackend | null {
  const state = useLinkState();
  return state.status === 'connected' ? state.backend : null;
}
