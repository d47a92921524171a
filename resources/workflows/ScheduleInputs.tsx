import { Box, MenuItem, TextField } from '@mui/material';
import { useMemo, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { AutocompleteInput, RadioButtonGroupInput, TextInput, useTranslate } from 'react-admin';
import { cronOfPreset, presetOf, TIME_ZONES, type PresetState, type SchedulePreset } from './form';
import { FormSection } from './FormParts';

const PRESETS: readonly SchedulePreset[] = ['hourly', 'daily', 'weekly', 'custom'];
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 0];
const text = (key: string) => `resources.workflows.schedule.${key}`;

/** Presets that write the cron expression: every hour, every day at an hour, every week on a day at an hour. */
function CronPresets() {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  const cron = useWatch({ name: 'schedule.cron' }) as string | null;
  const [custom, setCustom] = useState(false);
  const state = presetOf(cron);
  const preset = custom ? 'custom' : state.preset;
  const choose = (changes: Partial<PresetState>) => {
    const next = cronOfPreset({ ...state, preset: preset === 'custom' ? 'daily' : preset, ...changes });
    if (next) setValue('schedule.cron', next, { shouldDirty: true });
  };
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 2 }}>
      <TextField
        select
        size="small"
        label={translate(text('preset'))}
        value={preset}
        onChange={(event) => {
          const next = event.target.value as SchedulePreset;
          setCustom(next === 'custom');
          if (next !== 'custom') choose({ preset: next });
        }}
        sx={{ minWidth: 180 }}
      >
        {PRESETS.map((candidate) => (
          <MenuItem key={candidate} value={candidate}>
            {translate(text(`presets.${candidate}`))}
          </MenuItem>
        ))}
      </TextField>
      {(preset === 'daily' || preset === 'weekly') && (
        <TextField
          select
          size="small"
          label={translate(text('at'))}
          value={state.hour}
          onChange={(event) => choose({ hour: Number(event.target.value) })}
          sx={{ minWidth: 120 }}
        >
          {HOURS.map((hour) => (
            <MenuItem key={hour} value={hour}>
              {`${String(hour).padStart(2, '0')}:00`}
            </MenuItem>
          ))}
        </TextField>
      )}
      {preset === 'weekly' && (
        <TextField
          select
          size="small"
          label={translate(text('on'))}
          value={state.weekday}
          onChange={(event) => choose({ weekday: Number(event.target.value) })}
          sx={{ minWidth: 160 }}
        >
          {WEEKDAYS.map((day) => (
            <MenuItem key={day} value={day}>
              {translate(text(`weekdays.${day}`))}
            </MenuItem>
          ))}
        </TextField>
      )}
    </Box>
  );
}

/** When the workflow runs by itself: never, or by a cron expression in a time zone. */
export function ScheduleInputs() {
  const translate = useTranslate();
  const mode = useWatch({ name: 'scheduleMode' }) as string;
  const zones = useMemo(() => TIME_ZONES.map((zone) => ({ id: zone, name: zone })), []);
  return (
    <FormSection title={text('title')}>
      <RadioButtonGroupInput
        source="scheduleMode"
        label={text('mode')}
        row
        helperText={false}
        choices={[
          { id: 'off', name: translate(text('manual_only')) },
          { id: 'cron', name: translate(text('cron_mode')) },
        ]}
      />
      {mode === 'cron' && (
        <>
          <CronPresets />
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
            <TextInput
              source="schedule.cron"
              label={text('cron')}
              helperText={text('cron_help')}
              isRequired
              sx={{ minWidth: 220, '& input': { fontFamily: 'monospace' } }}
            />
            <AutocompleteInput
              source="schedule.timezone"
              label={text('timezone')}
              choices={zones}
              isRequired
              helperText={false}
              sx={{ minWidth: 260 }}
            />
          </Box>
        </>
      )}
    </FormSection>
  );
}
