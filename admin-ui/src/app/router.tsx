import { createContext, useContext, useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';
import type { Navigation } from './navigation.ts';

const NavigationContext = createContext<Navigation | null>(null);

export const NavigationProvider = NavigationContext.Provider;

export function useNavigation(): Navigation {
  const navigation = useContext(NavigationContext);
  if (!navigation) throw new Error('NavigationProvider missing');
  return navigation;
}

/** The current app path and search string; re-renders on navigation. */
export function useLocation(): { path: string; search: URLSearchParams } {
  const navigation = useNavigation();
  const key = useSyncExternalStore(navigation.subscribe, () => {
    const { path, search } = navigation.current();
    return `${path}${search}`;
  });
  const at = key.indexOf('?');
  return { path: at < 0 ? key : key.slice(0, at), search: new URLSearchParams(at < 0 ? '' : key.slice(at)) };
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { readonly to: string };

/** An in-app link: a real `<a href>` (open in new tab works) that navigates without reloading. */
export function Link({ to, onClick, ...rest }: LinkProps) {
  const navigation = useNavigation();
  const handle = (event: MouseEvent<HTMLAnchorElement>): void => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigation.navigate(to);
  };
  return <a href={navigation.href(to)} onClick={handle} {...rest} />;
}
