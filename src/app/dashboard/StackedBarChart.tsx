import { Box, Button, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { ChartLink, Swatch } from './ChartParts';
import { useChartText } from './chartTexts';

export interface BarSeries {
  key: string;
  label: string;
  color: string;
}

export interface StackedBarChartProps {
  title: string;
  /** One entry a day, with a count per series key. */
  days: ReadonlyArray<{ date: string }>;
  series: readonly BarSeries[];
  /** The list behind one bar segment: a series on a day. */
  linkOf: (date: string, series: string) => string;
}

const WIDTH = 720;
const HEIGHT = 240;
const MARGIN = { top: 12, right: 8, bottom: 28, left: 44 };

/** The smallest 1, 2 or 5 times a power of ten at or above a value (1 for nothing). */
export function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((step) => step * power).find((candidate) => candidate >= value)!;
}

const valueOf = (day: { date: string }, key: string) => {
  const value = (day as Record<string, unknown>)[key];
  return typeof value === 'number' ? value : 0;
};

/**
 * Days as stacked bars, one segment per series, each segment a link to the list behind it; the
 * legend gives each series' total, and the figures can be read as a table.
 */
export function StackedBarChart({ title, days, series, linkOf }: StackedBarChartProps) {
  const text = useChartText();
  const [figures, setFigures] = useState(false);
  const tableId = useId();
  const totals = days.map((day) => series.reduce((sum, item) => sum + valueOf(day, item.key), 0));
  const max = niceMax(Math.max(0, ...totals));
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const slot = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(2, slot * 0.7);
  const y = (value: number) => MARGIN.top + plotHeight - (value / max) * plotHeight;
  const labelEvery = Math.ceil(days.length / 8);
  const ticks = max % 2 === 0 ? [0, max / 2, max] : [0, max];

  return (
    <Box>
      <Box
        component="svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="group"
        aria-label={title}
        sx={{ width: '100%', height: 'auto', display: 'block', fontSize: 11 }}
      >
        {ticks.map((tick) => (
          <g key={tick} aria-hidden>
            <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(tick)} y2={y(tick)} stroke="currentColor" strokeOpacity={0.15} />
            <text x={MARGIN.left - 6} y={y(tick) + 4} textAnchor="end" fill="currentColor">
              {tick.toLocaleString('en')}
            </text>
          </g>
        ))}
        {days.map((day, index) => {
          const x = MARGIN.left + index * slot + (slot - barWidth) / 2;
          let base = 0;
          return (
            <g key={day.date} data-day={day.date}>
              {series.map((item) => {
                const count = valueOf(day, item.key);
                if (count === 0) return null;
                const top = y(base + count);
                const height = y(base) - top;
                base += count;
                const label = text('bar', { series: item.label, date: day.date, count: count.toLocaleString('en') });
                return (
                  <ChartLink key={item.key} to={linkOf(day.date, item.key)} label={label}>
                    <rect
                      x={x}
                      y={top}
                      width={barWidth}
                      height={Math.max(height, 1)}
                      fill={item.color}
                      data-series={item.key}
                      data-count={count}
                    >
                      <title>{label}</title>
                    </rect>
                  </ChartLink>
                );
              })}
              {index % labelEvery === 0 && (
                <text x={x + barWidth / 2} y={HEIGHT - 8} textAnchor="middle" fill="currentColor" aria-hidden>
                  {day.date.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </Box>
      <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, listStyle: 'none', p: 0, m: 0, mt: 1 }}>
        {series.map((item) => (
          <Box component="li" key={item.key} sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }} data-legend={item.key}>
            <Swatch color={item.color} />
            <Typography variant="body2">
              {item.label}: {days.reduce((sum, day) => sum + valueOf(day, item.key), 0).toLocaleString('en')}
            </Typography>
          </Box>
        ))}
      </Box>
      <Button size="small" sx={{ mt: 1 }} aria-expanded={figures} aria-controls={tableId} onClick={() => setFigures((shown) => !shown)}>
        {text(figures ? 'hide_figures' : 'show_figures')}
      </Button>
      {figures && (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" id={tableId} aria-label={text('figures_of', { title })}>
            <TableHead>
              <TableRow>
                <TableCell>{text('day')}</TableCell>
                {series.map((item) => (
                  <TableCell key={item.key} align="right">
                    {item.label}
                  </TableCell>
                ))}
                <TableCell align="right">{text('total')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {days.map((day, index) => (
                <TableRow key={day.date}>
                  <TableCell>{day.date}</TableCell>
                  {series.map((item) => (
                    <TableCell key={item.key} align="right">
                      {valueOf(day, item.key).toLocaleString('en')}
                    </TableCell>
                  ))}
                  <TableCell align="right">{totals[index].toLocaleString('en')}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Box>
  );
}
