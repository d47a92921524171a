import DownloadIcon from '@mui/icons-material/Download';
import SaveIcon from '@mui/icons-material/Save';
import SyncIcon from '@mui/icons-material/Sync';
import UploadIcon from '@mui/icons-material/Upload';
import { Alert, AlertTitle, Box, Button, MenuItem, TableCell, TableRow, TextField, Typography } from '@mui/material';
import { useRef } from 'react';
import { useCanAccess, useTranslate, WithRecord } from 'react-admin';
import { RelatedTable, type RelatedColumn } from '../../src/framework/related/RelatedTable';
import { SearchField } from '../../src/framework/related/SearchField';
import { useDictionary, useDictionaryEdits, useDictionaryFiles, type DictionaryEdits, type FileResult, type RowSave } from './hooks';
import { SENSITIVITIES, type ColumnsRefresh, type DataTable, type DictionaryEntry } from './types';
import { Spinner } from '../../src/framework/Spinner';

function SaveState({ save }: { save: RowSave }) {
  const translate = useTranslate();
  if (save.state === 'saving') return <Spinner size={16} aria-label={translate('resources.tables.dictionary.saving')} />;
  if (save.state === 'saved')
    return (
      <Typography variant="caption" color="success.main" role="status">
        {translate('resources.tables.dictionary.saved')}
      </Typography>
    );
  if (save.state === 'error')
    return (
      <Typography variant="caption" color="error" role="status">
        {translate('resources.tables.dictionary.save_error', { message: save.message })}
      </Typography>
    );
  return null;
}

/** One column of the dictionary, its description, business name, sensitivity and owner edited in place. */
function EntryRow({ edits, entry, editable }: { edits: DictionaryEdits; entry: DictionaryEntry; editable: boolean }) {
  const translate = useTranslate();
  const editor = edits.rowOf(entry);
  const label = (field: string) =>
    translate('resources.tables.dictionary.field_of', { field: translate(`resources.tables.dictionary.${field}`), name: entry.name });
  const disabled = !editable || editor.save.state === 'saving' || edits.savingAll;
  const text = (field: 'description' | 'businessName' | 'owner', multiline = false) => (
    <TextField
      size="small"
      fullWidth
      multiline={multiline}
      maxRows={4}
      value={editor.value(field)}
      disabled={disabled}
      onChange={(event) => editor.edit(field, event.target.value)}
      slotProps={{ htmlInput: { 'aria-label': label(field) } }}
    />
  );
  return (
    <TableRow data-column={entry.name} data-present={entry.present} sx={entry.present ? undefined : { opacity: 0.55 }}>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{entry.position}</TableCell>
      <TableCell>
        <Typography variant="body2" sx={{ fontWeight: 600, fontFamily: 'monospace' }}>
          {entry.name}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="div">
          {entry.dataType}
          {entry.nullable ? '' : ` · ${translate('resources.tables.dictionary.not_null')}`}
        </Typography>
        {!entry.present && (
          <Typography variant="caption" color="warning.main" component="div">
            {translate('resources.tables.dictionary.dropped')}
          </Typography>
        )}
      </TableCell>
      <TableCell sx={{ minWidth: 220 }}>{text('description', true)}</TableCell>
      <TableCell sx={{ minWidth: 160 }}>{text('businessName')}</TableCell>
      <TableCell sx={{ minWidth: 150 }}>
        <TextField
          select
          size="small"
          fullWidth
          value={editor.value('sensitivity')}
          disabled={disabled}
          onChange={(event) => editor.edit('sensitivity', event.target.value)}
          slotProps={{ select: { SelectDisplayProps: { 'aria-label': label('sensitivity') } as object } }}
        >
          {SENSITIVITIES.map((sensitivity) => (
            <MenuItem key={sensitivity} value={sensitivity}>
              {translate(`resources.tables.sensitivities.${sensitivity}`)}
            </MenuItem>
          ))}
        </TextField>
      </TableCell>
      <TableCell sx={{ minWidth: 140 }}>{text('owner')}</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>
        {editable && (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Button
              size="small"
              variant="outlined"
              disabled={!editor.dirty || disabled}
              onClick={() => void editor.submit()}
              aria-label={translate('resources.tables.dictionary.save_of', { name: entry.name })}
            >
              {translate('ra.action.save')}
            </Button>
            <SaveState save={editor.save} />
          </Box>
        )}
      </TableCell>
    </TableRow>
  );
}

function names(value: string[] | number): string {
  return Array.isArray(value) ? (value.length > 0 ? value.join(', ') : '—') : String(value);
}

function RefreshSummary({ result }: { result: ColumnsRefresh }) {
  const translate = useTranslate();
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      <li>{translate('resources.tables.dictionary.added', { names: names(result.added) })}</li>
      <li>{translate('resources.tables.dictionary.removed', { names: names(result.removed) })}</li>
      <li>{translate('resources.tables.dictionary.changed', { names: names(result.changed) })}</li>
    </Box>
  );
}

function FileResultPanel({ result, onClose }: { result: FileResult; onClose: () => void }) {
  const translate = useTranslate();
  if (!result) return null;
  if (result.kind === 'uploaded') {
    return (
      <Alert severity="success" onClose={onClose} role="status" sx={{ mb: 1 }}>
        {translate('resources.tables.dictionary.uploaded', { updated: result.result.updated, unchanged: result.result.unchanged })}
      </Alert>
    );
  }
  if (result.kind === 'refused') {
    return (
      <Alert severity="error" onClose={onClose} role="status" sx={{ mb: 1 }}>
        <AlertTitle>{translate('resources.tables.dictionary.upload_refused')}</AlertTitle>
        <Box component="ul" sx={{ m: 0, pl: 2 }} aria-label={translate('resources.tables.dictionary.upload_problems')}>
          {result.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </Box>
      </Alert>
    );
  }
  return (
    <Alert severity="info" onClose={onClose} role="status" sx={{ mb: 1 }}>
      <AlertTitle>{translate('resources.tables.dictionary.refreshed')}</AlertTitle>
      <RefreshSummary result={result.result} />
    </Alert>
  );
}

function DictionaryFiles({ editable, files }: { editable: boolean; files: ReturnType<typeof useDictionaryFiles> }) {
  const translate = useTranslate();
  const input = useRef<HTMLInputElement>(null);
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <Button
        size="small"
        startIcon={<DownloadIcon />}
        onClick={() => void files.download()}
        disabled={files.busy !== null}
        aria-busy={files.busy === 'download'}
      >
        {translate('resources.tables.dictionary.download')}
      </Button>
      {editable && (
        <>
          <Button
            size="small"
            startIcon={<UploadIcon />}
            onClick={() => input.current?.click()}
            disabled={files.busy !== null}
            aria-busy={files.busy === 'upload'}
          >
            {translate('resources.tables.dictionary.upload')}
          </Button>
          <input
            ref={input}
            type="file"
            accept=".csv,text/csv"
            hidden
            aria-label={translate('resources.tables.dictionary.upload_file')}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void files.upload(file);
            }}
          />
          <Button
            size="small"
            startIcon={<SyncIcon />}
            onClick={() => void files.refresh()}
            disabled={files.busy !== null}
            aria-busy={files.busy === 'refresh'}
          >
            {translate('resources.tables.dictionary.refresh')}
          </Button>
        </>
      )}
    </Box>
  );
}

/**
 * The table's data dictionary: a page of columns at a time, searched, each row edited in place
 * and saved on its own or with every other edited row ("Save all");
 * the whole dictionary as a CSV to download or upload, and the columns read again from the source.
 */
export function DictionaryTab(_: { label?: false }) {
  return <WithRecord<DataTable> render={(table) => <DictionaryBody table={table} />} />;
}

function DictionaryBody({ table }: { table: DataTable }) {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'tables', action: 'edit', record: table });
  const editable = canAccess === true;
  const dictionary = useDictionary(String(table.id));
  const files = useDictionaryFiles(String(table.id), table.name);
  const edits = useDictionaryEdits(String(table.id));
  const title = translate('resources.tables.dictionary.title');

  return (
    <Box component="section" aria-label={title} sx={{ width: '100%' }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 2, mb: 1, flexWrap: 'wrap' }}>
        <SearchField label={translate('resources.tables.dictionary.search')} value={dictionary.search} onChange={dictionary.setSearch} />
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          <DictionaryFiles editable={editable} files={files} />
          {editable && (
            <Button
              size="small"
              variant="contained"
              startIcon={edits.savingAll ? <Spinner size={14} color="inherit" /> : <SaveIcon />}
              disabled={edits.edited.length === 0 || edits.savingAll}
              aria-busy={edits.savingAll}
              onClick={() => void edits.saveAll()}
            >
              {translate('resources.tables.dictionary.save_all', { smart_count: edits.edited.length })}
            </Button>
          )}
        </Box>
      </Box>
      <FileResultPanel result={files.result} onClose={files.dismiss} />
      <RelatedTable
        list={dictionary.list}
        label={title}
        columns={COLUMNS}
        row={(entry) => <EntryRow edits={edits} entry={entry} editable={editable} />}
        empty={dictionary.search ? 'resources.tables.dictionary.none_match' : 'resources.tables.dictionary.empty'}
        loadingHeight={160}
      />
    </Box>
  );
}

/** The headers over the entries' own rows. */
const COLUMNS: readonly RelatedColumn<DictionaryEntry>[] = [
  { label: '#', render: () => null },
  ...['column', 'description', 'businessName', 'sensitivity', 'owner'].map((name) => ({
    label: `resources.tables.dictionary.${name}`,
    render: () => null,
  })),
  { render: () => null },
];
