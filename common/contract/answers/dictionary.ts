import { z } from 'zod';
import { SENSITIVITIES } from '../../schemas/tables';
import { answer, fileBytes, listAnswer, timestamp } from '../answers';

/** A table's data dictionary as the tables area answers it (docs/api/tables.md, "Data dictionary"). */

/** One column of a table, as discovered, with what people wrote about it. */
export const dictionaryEntry = z.object({
  name: z.string(),
  /** Its place in the source's table (or file). */
  position: z.number().int(),
  /** The source's own name of its type. */
  dataType: z.string(),
  nullable: z.boolean(),
  description: z.string(),
  businessName: z.string(),
  /** A `pii` column's values are masked in failing-row samples. */
  sensitivity: z.enum(SENSITIVITIES),
  owner: z.string(),
  /** False once the source no longer has the column (what was written about it is kept). */
  present: z.boolean(),
  updatedAt: timestamp,
  /** Who last edited the entry (their name, else their email); null when no one has or they are gone. */
  updatedByName: z.string().nullable(),
});
export type DictionaryEntry = z.infer<typeof dictionaryEntry>;

/** `GET /tables/dataDictionary/…`: a page of entries, by position. */
export const dictionaryListAnswer = listAnswer(dictionaryEntry);

/** `POST /tables/dictionary/upload/{id}`: its form, one CSV file. */
export const dictionaryUploadForm = z.object({ file: fileBytes });

/** `POST /tables/dictionary/upload/{id}`: how many entries the file changed, and how many it left as they were. */
export const dictionaryUploadAnswer = answer(z.object({ updated: z.number().int(), unchanged: z.number().int() }));

/**
 * `GET /table/dictionary/{id}`: the whole dictionary as a CSV download (UTF-8 with a byte-order
 * mark; also the template to upload): `column`, `position`, `data_type`, `nullable`, `description`,
 * `business_name`, `sensitivity`, `owner`, `present`.
 */
export const dictionaryCsvFile = {
  kind: 'file' as const,
  description: 'The data dictionary as CSV (`Content-Disposition: attachment`)',
  content: { 'text/csv': { schema: z.string() } },
};
