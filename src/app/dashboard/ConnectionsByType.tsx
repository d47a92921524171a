import { Box, Typography } from '@mui/material';
import { Link, useTranslate } from 'react-admin';
import { connectionsOfType } from './chartLinks';
import { ChartFrame } from './ChartParts';
import { useChartText } from './chartTexts';
import { useConnectionsByType } from './useDashboardCharts';

/** The company's connections by type, most first: each type a bar with its figures, leading to the connections of that type. */
export function ConnectionsByType() {
  const text = useChartText();
  const translate = useTranslate();
  const query = useConnectionsByType();
  const rows = [...(query.data ?? [])].sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
  const max = Math.max(1, ...rows.map((row) => row.count));
  const title = text('connections_by_type');
  return (
    <ChartFrame title={title} pending={query.isPending} failed={query.isError}>
      {rows.length === 0 ? (
        <Typography variant="body2">{text('no_connections')}</Typography>
      ) : (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.25 }}>
          {rows.map((row) => {
            const label = translate(`resources.connections.types.${row.type}.label`, { _: row.label });
            return (
              <Box component="li" key={row.type} data-type={row.type}>
                <Link to={connectionsOfType(row.type)} sx={{ display: 'block' }}>
                  <Typography variant="body2" component="span">
                    {text('connections_of', { label, count: row.count.toLocaleString('en'), active: row.active.toLocaleString('en') })}
                  </Typography>
                  <Box aria-hidden sx={{ mt: 0.5, height: 10, borderRadius: 1, bgcolor: 'action.hover', overflow: 'hidden' }}>
                    <Box sx={{ height: '100%', width: `${(row.count / max) * 100}%`, bgcolor: 'primary.main', display: 'flex' }}>
                      <Box
                        sx={{ height: '100%', width: row.count > 0 ? `${(row.active / row.count) * 100}%` : 0, bgcolor: 'primary.dark' }}
                      />
                    </Box>
                  </Box>
                </Link>
              </Box>
            );
          })}
        </Box>
      )}
    </ChartFrame>
  );
}
