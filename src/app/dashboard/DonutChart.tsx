import { Box, Typography } from '@mui/material';
import { ChartLink, percent, Swatch } from './ChartParts';
import { useChartText } from './chartTexts';

export interface Slice {
  key: string;
  label: string;
  count: number;
  color: string;
  /** The list behind the slice. */
  link: string;
}

const SIZE = 180;
const CENTER = SIZE / 2;
const OUTER = 84;
const INNER = 52;

function point(radius: number, angle: number): string {
  return `${(CENTER + radius * Math.cos(angle)).toFixed(3)} ${(CENTER + radius * Math.sin(angle)).toFixed(3)}`;
}

/** A ring segment from one angle to another (radians, clockwise from the top). */
function segment(from: number, to: number): string {
  // A whole ring cannot be one arc (its ends meet): it is drawn a hair short.
  const end = to - from >= 2 * Math.PI ? from + 2 * Math.PI - 1e-4 : to;
  const large = end - from > Math.PI ? 1 : 0;
  return [
    `M ${point(OUTER, from)}`,
    `A ${OUTER} ${OUTER} 0 ${large} 1 ${point(OUTER, end)}`,
    `L ${point(INNER, end)}`,
    `A ${INNER} ${INNER} 0 ${large} 0 ${point(INNER, from)}`,
    'Z',
  ].join(' ');
}

/**
 * Counts as a ring, each slice a link to the list behind it, and beside it the same figures as
 * text (count and share per slice).
 */
export function DonutChart({ title, slices, emptyText }: { title: string; slices: readonly Slice[]; emptyText: string }) {
  const text = useChartText();
  const shown = slices.filter((slice) => slice.count > 0);
  const total = shown.reduce((sum, slice) => sum + slice.count, 0);
  if (total === 0) return <Typography variant="body2">{emptyText}</Typography>;
  let angle = -Math.PI / 2;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 3, flexWrap: 'wrap' }}>
      <Box
        component="svg"
        viewBox={`0 0 ${SIZE} ${SIZE}`}
        role="group"
        aria-label={title}
        sx={{ width: SIZE, height: SIZE, flex: '0 0 auto' }}
      >
        {shown.map((slice) => {
          const from = angle;
          angle += (slice.count / total) * 2 * Math.PI;
          const label = text('slice', { label: slice.label, count: slice.count.toLocaleString('en'), share: percent(slice.count / total) });
          return (
            <ChartLink key={slice.key} to={slice.link} label={label}>
              <path d={segment(from, angle)} fill={slice.color} data-slice={slice.key} data-count={slice.count}>
                <title>{label}</title>
              </path>
            </ChartLink>
          );
        })}
        <text x={CENTER} y={CENTER + 6} textAnchor="middle" fontSize={18} fontWeight={600} fill="currentColor" aria-hidden>
          {total.toLocaleString('en')}
        </text>
      </Box>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 0.75 }}>
        {shown.map((slice) => (
          <Box component="li" key={slice.key} sx={{ display: 'flex', alignItems: 'center', gap: 1 }} data-legend={slice.key}>
            <Swatch color={slice.color} />
            <Typography variant="body2">
              {slice.label}: {slice.count.toLocaleString('en')} ({percent(slice.count / total)})
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
