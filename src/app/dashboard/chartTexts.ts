import { useCallback } from 'react';
import { useTranslate } from 'react-admin';
import type { appMessages } from '../../../providers/i18n/app-messages';

/** The charts' texts: translation keys under `app.dashboard.charts` (providers/i18n/app-messages.ts). */
export type ChartText = keyof typeof appMessages.app.dashboard.charts;

export function useChartText() {
  const translate = useTranslate();
  return useCallback(
    (key: ChartText, options: Record<string, unknown> = {}) => translate(`app.dashboard.charts.${key}`, options),
    [translate],
  );
}
