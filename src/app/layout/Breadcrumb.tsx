import { Box, Link, Typography } from '@mui/material';
import { Fragment } from 'react';
import { LinkBase, TitlePortal, useLocation, useTranslate } from 'react-admin';
import { useNavigationMenu } from '../menu/useNavigationMenu';

/**
 * Where the user is: the menu groups above the current page, then the page title that
 * react-admin's <Title> (or a List/Show view) writes into the title portal. Under a page
 * (a record of the list) the page itself becomes a link back.
 */
export function Breadcrumb() {
  const { trail, label } = useNavigationMenu();
  const { pathname } = useLocation();
  const translate = useTranslate();
  const page = trail[trail.length - 1];
  const onPage = page?.url !== undefined && pathname.replace(/\/+$/, '') === page.url.replace(/\/+$/, '');
  const crumbs = onPage ? trail.slice(0, -1) : trail;
  return (
    <Box
      component="nav"
      aria-label={translate('app.appbar.breadcrumb')}
      sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0, flex: 1 }}
    >
      {crumbs.length > 0 && (
        <Box sx={{ display: { xs: 'none', sm: 'flex' }, alignItems: 'center', gap: 1 }}>
          {crumbs.map((node) => (
            <Fragment key={node.id}>
              {node.url && node === page ? (
                <Link
                  component={LinkBase}
                  to={node.url}
                  color="inherit"
                  variant="body2"
                  underline="hover"
                  sx={{ opacity: 0.8, whiteSpace: 'nowrap' }}
                >
                  {label(node)}
                </Link>
              ) : (
                <Typography variant="body2" sx={{ opacity: 0.7, whiteSpace: 'nowrap' }}>
                  {label(node)}
                </Typography>
              )}
              <Typography variant="body2" aria-hidden sx={{ opacity: 0.5 }}>
                ›
              </Typography>
            </Fragment>
          ))}
        </Box>
      )}
      <TitlePortal variant="subtitle1" sx={{ fontWeight: 600 }} />
    </Box>
  );
}
