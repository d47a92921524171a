import ChatIcon from '@mui/icons-material/ChatOutlined';
import CloudIcon from '@mui/icons-material/CloudOutlined';
import CodeIcon from '@mui/icons-material/Code';
import ExtensionIcon from '@mui/icons-material/ExtensionOutlined';
import MemoryIcon from '@mui/icons-material/Memory';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import StorageIcon from '@mui/icons-material/Storage';
import { Box, Button, Card, CardActions, CardContent, Chip, Link, Typography, type SvgIconProps } from '@mui/material';
import type { ComponentType } from 'react';
import { LinkBase, useCanAccess, useCreatePath, useTranslate } from 'react-admin';
import { useTypeTexts } from '../../../resources/connections/typeTexts';
import { OutboundLink } from '../../framework/OutboundLink';
import type { Integration } from './api';

const CATEGORY_ICONS: Record<string, ComponentType<SvgIconProps>> = {
  cloud_storage: CloudIcon,
  database: StorageIcon,
  chat: ChatIcon,
  code: CodeIcon,
  compute: MemoryIcon,
};

/** The connections list filtered to this integration's type. */
function connectionsOfTypePath(createPath: ReturnType<typeof useCreatePath>, type: string): string {
  return `${createPath({ resource: 'connections', type: 'list' })}?filter=${encodeURIComponent(JSON.stringify({ type: [type] }))}`;
}

/**
 * One integration: what it is, whether the company uses it (an "Active" badge when at least one
 * of its connections is active, and how many it has, leading to them), its setup guide, and
 * "Configure" for those who may.
 */
export function IntegrationCard({
  integration,
  mayConfigure,
  onConfigure,
}: {
  integration: Integration;
  mayConfigure: boolean;
  onConfigure: () => void;
}) {
  const translate = useTranslate();
  const texts = useTypeTexts();
  const createPath = useCreatePath();
  const { canAccess: mayListConnections } = useCanAccess({ resource: 'connections', action: 'list' });
  const Icon = CATEGORY_ICONS[integration.category] ?? ExtensionIcon;
  const name = texts.label({ type: integration.connectionType, label: integration.name });
  const titleId = `integration-${integration.id}`;
  const count = translate('resources.marketplace.card.connections', { smart_count: integration.connections });

  return (
    <Card
      variant="outlined"
      component="article"
      aria-labelledby={titleId}
      data-integration={integration.id}
      sx={{ display: 'flex', flexDirection: 'column' }}
    >
      <CardContent sx={{ flexGrow: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
          <Icon color="action" aria-hidden />
          <Typography id={titleId} variant="subtitle1" component="h3" sx={{ fontWeight: 600, flexGrow: 1 }}>
            {name}
          </Typography>
          {integration.active && (
            <Chip
              size="small"
              color="success"
              label={translate('resources.marketplace.card.active')}
              title={translate('resources.marketplace.card.active_title')}
            />
          )}
        </Box>
        <Typography variant="body2" color="text.secondary">
          {translate(`resources.connections.types.${integration.connectionType}.description`, { _: integration.description })}
        </Typography>
        <Typography variant="body2" sx={{ mt: 1.5 }} data-connections={integration.connections}>
          {integration.connections === 0 ? (
            <Box component="span" sx={{ color: 'text.secondary' }}>
              {translate('resources.marketplace.card.none')}
            </Box>
          ) : mayListConnections ? (
            <Link
              component={LinkBase}
              to={connectionsOfTypePath(createPath, integration.connectionType)}
              aria-label={`${count}: ${translate('resources.marketplace.card.connections_of', { name })}`}
            >
              {count}
            </Link>
          ) : (
            count
          )}
        </Typography>
      </CardContent>
      <CardActions sx={{ justifyContent: 'space-between', px: 2, pb: 2 }}>
        {integration.docsUrl ? (
          <OutboundLink
            href={integration.docsUrl}
            variant="body2"
            aria-label={translate('resources.marketplace.card.docs_of', { name })}
            sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
          >
            {translate('resources.marketplace.card.docs')}
            <OpenInNewIcon fontSize="inherit" />
          </OutboundLink>
        ) : (
          <span />
        )}
        {mayConfigure && (
          <Button
            variant="outlined"
            size="small"
            onClick={onConfigure}
            aria-label={translate('resources.marketplace.card.configure_of', { name })}
          >
            {translate('resources.marketplace.card.configure')}
          </Button>
        )}
      </CardActions>
    </Card>
  );
}
