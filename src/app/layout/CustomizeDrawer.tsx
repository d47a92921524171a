import { memo } from 'react';
import CloseIcon from '@mui/icons-material/Close';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import {
  Box,
  Button,
  Divider,
  Drawer,
  FormControlLabel,
  IconButton,
  Stack,
  Switch,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import { useLayoutPreferences } from '../preferences/LayoutPreferencesContext';

interface ChoiceProps<T extends string> {
  label: string;
  value: T;
  options: ReadonlyArray<readonly [T, string]>;
  onChange: (value: T) => void;
}

/** One exclusive choice (layout, theme, colours) as a row of toggle buttons. */
function Choice<T extends string>({ label, value, options, onChange }: ChoiceProps<T>) {
  const translate = useTranslate();
  const title = translate(label);
  return (
    <Box>
      <Typography variant="overline" component="h3" color="text.secondary">
        {title}
      </Typography>
      <ToggleButtonGroup
        exclusive
        fullWidth
        size="small"
        color="primary"
        aria-label={title}
        value={value}
        onChange={(_, next: T | null) => next && onChange(next)}
      >
        {options.map(([option, optionLabel]) => (
          <ToggleButton key={option} value={option}>
            {translate(optionLabel)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
    </Box>
  );
}

function Option({ label, checked, onChange }: { label: string; checked: boolean; onChange: () => void }) {
  const translate = useTranslate();
  return <FormControlLabel control={<Switch checked={checked} onChange={onChange} />} label={translate(label)} />;
}

/** The "Customize" settings drawer: every layout preference, and a way back to the defaults. */
export const CustomizeDrawer = memo(function CustomizeDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [preferences, actions] = useLayoutPreferences();
  const translate = useTranslate();
  const title = translate('app.customize.title');
  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      slotProps={{ paper: { 'aria-label': title, sx: { width: 320, maxWidth: '100vw' } } }}
    >
      <Stack direction="row" sx={{ alignItems: 'center', px: 2, py: 1.5 }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          {title}
        </Typography>
        <IconButton aria-label={translate('app.customize.close')} onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Stack>
      <Divider />
      <Stack spacing={2.5} sx={{ p: 2 }}>
        <Choice
          label="app.customize.layout"
          value={preferences.layout}
          options={[
            ['vertical', 'app.customize.layout_vertical'],
            ['horizontal', 'app.customize.layout_horizontal'],
          ]}
          onChange={actions.setLayout}
        />
        <Choice
          label="app.customize.theme"
          value={preferences.theme}
          options={[
            ['light', 'app.customize.theme_light'],
            ['dark', 'app.customize.theme_dark'],
          ]}
          onChange={actions.setTheme}
        />
        <Choice
          label="app.customize.menu_colour"
          value={preferences.layoutType}
          options={[
            ['menu-dark', 'app.customize.menu_dark'],
            ['menu-light', 'app.customize.menu_light'],
          ]}
          onChange={actions.setMenuColours}
        />
        <Choice
          label="app.customize.header_colour"
          value={preferences.headerBackColor}
          options={[
            ['header-dark', 'app.customize.header_dark'],
            ['header-light', 'app.customize.header_light'],
          ]}
          onChange={actions.setHeaderColours}
        />
        <Box>
          <Typography variant="overline" component="h3" color="text.secondary">
            {translate('app.customize.options')}
          </Typography>
          <Stack>
            <Option label="app.customize.collapse_menu" checked={preferences.collapseMenu} onChange={actions.toggleMenuCollapse} />
            <Option label="app.customize.nav_fixed" checked={preferences.navFixedLayout} onChange={actions.toggleNavFixed} />
            <Option label="app.customize.header_fixed" checked={preferences.headerFixedLayout} onChange={actions.toggleHeaderFixed} />
            <Option label="app.customize.full_width" checked={preferences.fullWidthLayout} onChange={actions.toggleFullWidth} />
          </Stack>
        </Box>
        <Button variant="outlined" startIcon={<RestartAltIcon />} onClick={actions.reset}>
          {translate('app.customize.reset')}
        </Button>
      </Stack>
    </Drawer>
  );
});
