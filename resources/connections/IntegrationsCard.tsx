import AddIcon from '@mui/icons-material/Add';
import { Box, Button, Card, CardContent, Chip, Typography } from '@mui/material';
import { LinkBase, useCanAccess, useCreatePath, useTranslate } from 'react-admin';
import type { ConnectionType } from '../../common/connections';
import { useIntegration } from './api';
import type { Integration, IntegrationKind } from './types';

/** A new connection of this type: the create form opens on its settings. */
export function createOfTypePath(createPath: ReturnType<typeof useCreatePath>, type: ConnectionType): string {
  return `${createPath({ resource: 'connections', type: 'create' })}?source=${encodeURIComponent(JSON.stringify({ type }))}`;
}

const CREATES: Record<IntegrationKind, ConnectionType> = { slack: 'slack', bitbucket: 'bitbucket' };

function IntegrationLine({ kind, integration, mayCreate }: { kind: IntegrationKind; integration: Integration; mayCreate: boolean }) {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const name = translate(`resources.connections.integrations.${kind}`);
  const count = integration.connections?.length ?? 0;
  return (
    <Box data-integration={kind} sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <Typography variant="subtitle2" component="span" sx={{ minWidth: 140 }}>
        {name}
      </Typography>
      {integration.configured ? (
        <>
          <Chip
            size="small"
            color={integration.active ? 'success' : 'default'}
            label={translate(
              integration.active ? 'resources.connections.integrations.active' : 'resources.connections.integrations.inactive',
            )}
          />
          <Typography variant="body2" color="text.secondary" component="span">
            {translate('resources.connections.integrations.count', { smart_count: count })}
          </Typography>
        </>
      ) : (
        <>
          <Chip size="small" variant="outlined" label={translate('resources.connections.integrations.not_configured')} />
          {mayCreate && (
            <Button size="small" startIcon={<AddIcon />} component={LinkBase} to={createOfTypePath(createPath, CREATES[kind])}>
              {translate(`resources.connections.integrations.create_${kind}`)}
            </Button>
          )}
        </>
      )}
    </Box>
  );
}

/**
 * The integrations the company has set up (`GET /connection/slack/integration`, `GET
 * /connection/bitbucket/integration`): Slack for messages, code repositories for workflows' SQL,
 * each with a link to set one up when there is none. A failure leaves a line out, as cards do.
 */
export function IntegrationsCard() {
  const translate = useTranslate();
  const { canAccess: mayRead } = useCanAccess({ resource: 'connections', action: 'list' });
  const { canAccess: mayCreate } = useCanAccess({ resource: 'connections', action: 'create' });
  const slack = useIntegration('slack', mayRead === true);
  const code = useIntegration('bitbucket', mayRead === true);
  if (mayRead !== true || (!slack.data && !code.data)) return null;
  const title = translate('resources.connections.integrations.title');
  return (
    <Card variant="outlined" component="section" aria-label={title} sx={{ mt: 2 }}>
      <CardContent sx={{ display: 'grid', gap: 1, py: 1.5, '&:last-child': { pb: 1.5 } }}>
        <Typography variant="body2" color="text.secondary">
          {title}
        </Typography>
        {slack.data && <IntegrationLine kind="slack" integration={slack.data} mayCreate={mayCreate === true} />}
        {code.data && <IntegrationLine kind="bitbucket" integration={code.data} mayCreate={mayCreate === true} />}
      </CardContent>
    </Card>
  );
}
