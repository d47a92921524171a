import { Button, Link, type ButtonProps, type LinkProps } from '@mui/material';
import { useCallback, type MouseEvent } from 'react';
import { followOutboundLink, getAnalytics } from '../../providers/analytics';

/** Opens an address outside the console: in a new tab (the default), or in place of the console. */
function openAddress(url: string, newTab: boolean): void {
  if (newTab) window.open(url, '_blank', 'noopener,noreferrer');
  else window.location.assign(url);
}

/**
 * The click of a link that leaves the console (spec sections 7 and 9): it is reported to the web
 * analytics service, and followed once the report is sent or the 250 ms outbound-link timeout has
 * passed. A click that asks the browser for something else (a modifier key, the middle button)
 * is reported and left to the browser.
 */
export function useOutboundClick(href: string, newTab = true) {
  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      if (event.defaultPrevented) return;
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
        getAnalytics().outboundLink(href, () => undefined);
        return;
      }
      event.preventDefault();
      followOutboundLink(href, (url) => openAddress(url, newTab));
    },
    [href, newTab],
  );
}

type OutboundProps = { href: string; newTab?: boolean };

/** A text link to an address outside the console, reported to analytics when followed. */
export function OutboundLink({ href, newTab = true, onClick, ...props }: OutboundProps & Omit<LinkProps, 'href'>) {
  const follow = useOutboundClick(href, newTab);
  return (
    <Link
      {...props}
      href={href}
      target={newTab ? '_blank' : undefined}
      rel="noopener noreferrer"
      onClick={(event) => {
        onClick?.(event);
        follow(event);
      }}
    />
  );
}

/** A button to an address outside the console, reported to analytics when followed. */
export function OutboundButton({ href, newTab = true, onClick, ...props }: OutboundProps & Omit<ButtonProps<'a'>, 'href'>) {
  const follow = useOutboundClick(href, newTab);
  return (
    <Button
      {...props}
      component="a"
      href={href}
      target={newTab ? '_blank' : undefined}
      rel="noopener noreferrer"
      onClick={(event: MouseEvent<HTMLAnchorElement>) => {
        onClick?.(event);
        follow(event);
      }}
    />
  );
}
