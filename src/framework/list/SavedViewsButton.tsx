import BookmarksIcon from '@mui/icons-material/BookmarksOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import SaveIcon from '@mui/icons-material/BookmarkAdd';
import { Divider, IconButton, ListItemText, Menu, MenuItem, Tooltip, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, TextInput, useListContext, useStoreContext, useTranslate } from 'react-admin';
import { z } from 'zod';
import type { SavedView } from '../../../common/contract/answers/list-views';
import { alerts } from '../../../providers/alerts';
import { ApiError, apiRequest } from '../../../providers/http';
import { columnSources, columnStoreKeys, ranksFromOrder } from '../columns/columnChoices';
import { useDeclaration } from '../DeclarationContext';
import { defaultHiddenColumns, listKeyOf } from '../declaration';
import { failureText } from '../feedback';
import { FormDialog } from '../form/FormDialog';
import { MenuAction } from '../MenuAction';

/**
 * Personal saved views of a list (react-admin's saved queries): the filters, sort and columns
 * shown now, kept under a name by the server (`/lists/{listKey}/views`), so that they outlive a
 * sign-out. Applying one sets the three back; each can be deleted. Against a server without the
 * calls (404), the button is not shown.
 */

const viewsPath = (listKey: string) => `/lists/${encodeURIComponent(listKey)}/views`;
const viewsKey = (listKey: string) => ['lists', listKey, 'views'] as const;

/** The caller's views of the list; null when the server keeps none (no such call). */
async function loadViews(listKey: string, signal?: AbortSignal): Promise<SavedView[] | null> {
  try {
    const answer = await apiRequest<{ data: SavedView[] }>(viewsPath(listKey), { signal });
    return answer.data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

const nameSchema = z.object({ name: z.string().trim().min(1, 'ra.validation.required') });

export function SavedViewsButton() {
  const declaration = useDeclaration();
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const listKey = listKeyOf(declaration.name);
  const keys = columnStoreKeys(declaration.name);
  const { filterValues, sort, setFilters, setSort } = useListContext();
  // The columns are read and set when asked: the button does not follow every change of them.
  const store = useStoreContext();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [saving, setSaving] = useState(false);
  const views = useQuery({
    queryKey: viewsKey(listKey),
    queryFn: ({ signal }) => loadViews(listKey, signal),
    staleTime: 60_000,
    // Asked for once the menu is first opened, not with the list's first page.
    enabled: anchor !== null || saving,
  });
  const [asked, setAsked] = useState(false);
  if (views.data === null) return null;
  const close = () => setAnchor(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: viewsKey(listKey) });

  const apply = (view: SavedView) => {
    setFilters(view.filter, Object.fromEntries(Object.keys(view.filter).map((name) => [name, true])));
    if (view.sort) setSort(view.sort);
    if (view.hidden) store.setItem(keys.hidden, view.hidden);
    if (view.order) store.setItem(keys.ranks, ranksFromOrder(columnSources(declaration), view.order));
    alerts.success(translate('app.list.views.applied', { name: view.name }));
  };

  const remove = async (view: SavedView) => {
    try {
      await apiRequest(`${viewsPath(listKey)}/${encodeURIComponent(view.id)}`, { method: 'DELETE' });
      alerts.success(translate('app.list.views.deleted', { name: view.name }));
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      void reload();
    }
  };

  const save = async ({ name }: { name: string }) => {
    const sources = columnSources(declaration);
    const hidden = store.getItem<string[]>(keys.hidden, defaultHiddenColumns(declaration));
    const ranks = store.getItem<number[] | undefined>(keys.ranks);
    const order = ranks ? ranks.map((rank) => sources[rank]).filter(Boolean) : null;
    try {
      await apiRequest(viewsPath(listKey), {
        method: 'POST',
        body: { name, filter: filterValues, sort: sort?.field ? sort : null, hidden, order },
      });
      alerts.success(translate('app.list.views.saved', { name: name.trim() }));
      void reload();
      return null;
    } catch (error) {
      return failureText(error);
    }
  };

  const list = views.data ?? [];
  return (
    <>
      <Button
        label="app.list.views.button"
        onClick={(event) => {
          setAnchor(event.currentTarget);
          setAsked(true);
        }}
        aria-haspopup="menu"
      >
        <BookmarksIcon />
      </Button>
      {asked && (
        <Menu open={anchor !== null} anchorEl={anchor} onClose={close}>
          {list.length === 0 && (
            <MenuItem disabled>
              <Typography variant="body2">{translate('app.list.views.none')}</Typography>
            </MenuItem>
          )}
          {list.map((view) => (
            <MenuItem
              key={view.id}
              onClick={() => {
                close();
                apply(view);
              }}
              sx={{ gap: 1 }}
            >
              <ListItemText>{view.name}</ListItemText>
              <Tooltip title={translate('app.list.views.delete', { name: view.name })}>
                <IconButton
                  size="small"
                  edge="end"
                  aria-label={translate('app.list.views.delete', { name: view.name })}
                  onClick={(event) => {
                    event.stopPropagation();
                    void remove(view);
                  }}
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </MenuItem>
          ))}
          <Divider />
          <MenuAction icon={SaveIcon} label={translate('app.list.views.save')} close={close} onAct={() => setSaving(true)} />
        </Menu>
      )}
      {saving && (
        <FormDialog<{ name: string }>
          title={translate('app.list.views.save_title')}
          schema={nameSchema}
          problemFields={['name']}
          defaultValues={{ name: '' }}
          onSubmit={save}
          onClose={() => setSaving(false)}
          saveIcon={<SaveIcon />}
        >
          <TextInput
            source="name"
            label="app.list.views.name"
            helperText="app.list.views.name_help"
            autoFocus
            fullWidth
            slotProps={{ htmlInput: { maxLength: 60 } }}
          />
        </FormDialog>
      )}
    </>
  );
}
