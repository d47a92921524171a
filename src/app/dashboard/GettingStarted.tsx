import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import { Box, Button, Card, CardContent, LinearProgress, List, ListItem, ListItemIcon, ListItemText, Typography } from '@mui/material';
import { useId } from 'react';
import { LinkBase, useTranslate } from 'react-admin';
import { STEP_LINKS, useGettingStarted } from './useGettingStarted';

/**
 * The getting-started checklist of a new company: connect a source, register a table, add rules,
 * create a workflow, invite a colleague. Each step ticks itself from the company's data and links
 * to where it is done; the list goes once every step is done, or when the user hides it.
 */
export function GettingStarted({ enabled }: { enabled: boolean }) {
  const translate = useTranslate();
  const titleId = useId();
  const { steps, visible, dismiss } = useGettingStarted(enabled);
  if (!visible || !steps) return null;
  const done = steps.filter((step) => step.done).length;
  return (
    <Card component="section" aria-labelledby={titleId} variant="outlined" sx={{ mb: 3 }}>
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
          <Typography id={titleId} variant="h6" component="h2">
            {translate('app.dashboard.getting_started.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {translate('app.dashboard.getting_started.progress', { done, total: steps.length })}
          </Typography>
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('app.dashboard.getting_started.intro')}
        </Typography>
        <LinearProgress
          variant="determinate"
          value={(done / steps.length) * 100}
          aria-label={translate('app.dashboard.getting_started.progress', { done, total: steps.length })}
          sx={{ mb: 1 }}
        />
        <List dense>
          {steps.map((step) => {
            const label = translate(`app.dashboard.getting_started.steps.${step.key}`);
            return (
              <ListItem key={step.key} disableGutters data-step={step.key} data-done={step.done || undefined}>
                <ListItemIcon sx={{ minWidth: 36 }}>
                  {step.done ? (
                    <CheckCircleIcon color="success" titleAccess={translate('app.dashboard.getting_started.done')} />
                  ) : (
                    <RadioButtonUncheckedIcon color="disabled" titleAccess={translate('app.dashboard.getting_started.to_do')} />
                  )}
                </ListItemIcon>
                <ListItemText
                  primary={
                    step.done ? (
                      label
                    ) : (
                      <LinkBase to={STEP_LINKS[step.key]} style={{ color: 'inherit' }}>
                        {label}
                      </LinkBase>
                    )
                  }
                  secondary={translate(`app.dashboard.getting_started.hints.${step.key}`)}
                  slotProps={{ primary: { sx: { textDecoration: step.done ? 'line-through' : undefined } } }}
                />
              </ListItem>
            );
          })}
        </List>
        <Button size="small" onClick={dismiss}>
          {translate('app.dashboard.getting_started.dismiss')}
        </Button>
      </CardContent>
    </Card>
  );
}
