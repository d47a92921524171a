import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The texts the server words for people, read from its source: the messages of the errors it
 * answers (badRequest, conflict, new HttpError…, and `X not found`), the problems its validation
 * schemas name, and the titles and messages of the notifications it stores. A variable part of a
 * text is a placeholder. Texts put together wholly from other texts (`${field}: ${problem}`) are
 * left out: their parts are found where they are written.
 */
export interface ScannedText {
  /** The text with each variable part as {0}, {1}… */
  pattern: string;
  /** Where it is written, as path:line. */
  where: string;
}

const ERROR_HELPERS = new Set(['badRequest', 'conflict', 'forbidden', 'unauthorized', 'tooManyRequests', 'serviceUnavailable']);
const TEXT_PROPERTIES = new Set(['error', 'message']);
const NOTICE_PROPERTIES = new Set(['title', 'message']);

function sourceFiles(root: string, dirs: string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name)) files.push(full);
    }
  };
  for (const dir of dirs) walk(path.join(root, dir));
  return files;
}

const parse = (file: string) => ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);

/**
 * Every `const NAME = 'text'` (or a template, or a choice of two) by name: the exported
 * SCREAMING_CASE constants of all the given files, or every constant of one file.
 */
function constants(sources: ts.SourceFile[], shared: boolean): Map<string, ts.Expression[]> {
  const found = new Map<string, ts.Expression[]>();
  for (const source of sources) {
    const visit = (node: ts.Node) => {
      if (
        ts.isVariableDeclaration(node) &&
        ts.isIdentifier(node.name) &&
        node.initializer &&
        (!shared || /^[A-Z][A-Z0-9_]+$/.test(node.name.text))
      ) {
        const list = found.get(node.name.text) ?? [];
        list.push(node.initializer);
        found.set(node.name.text, list);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

function texts(expression: ts.Expression, named: Map<string, ts.Expression[]>, depth = 0): string[] {
  if (depth > 3) return [];
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return [expression.text];
  if (ts.isTemplateExpression(expression)) {
    let pattern = expression.head.text;
    expression.templateSpans.forEach((span, i) => (pattern += `{${i}}${span.literal.text}`));
    return [pattern];
  }
  if (ts.isParenthesizedExpression(expression)) return texts(expression.expression, named, depth);
  if (ts.isConditionalExpression(expression))
    return [...texts(expression.whenTrue, named, depth), ...texts(expression.whenFalse, named, depth)];
  if (ts.isIdentifier(expression))
    return (named.get(expression.text) ?? []).flatMap((value) =>
      ts.isStringLiteral(value) ||
      ts.isNoSubstitutionTemplateLiteral(value) ||
      ts.isTemplateExpression(value) ||
      ts.isConditionalExpression(value)
        ? texts(value, named, depth + 1)
        : [],
    );
  return [];
}

const calleeName = (call: ts.CallExpression | ts.NewExpression) => {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return '';
};

const importsZod = (source: ts.SourceFile) =>
  source.statements.some(
    (s) => ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && /^zod(\/|$)/.test(s.moduleSpecifier.text),
  );

/**
 * A field path and nothing but a problem of its own (`logo: ${reason}`, `settings.${key}: ${message}`):
 * the path is kept as sent, and the problem is worded where it is written (or is a library's words).
 */
const FIELD_AND_OTHER_TEXT = /^[A-Za-z_][\w.{}[\]-]*: \{\d+\}$/;

/** What the scan finds that no one reads. */
const NOT_FOR_PEOPLE = new Set([
  // Header values of a report download (Content-Disposition, Cache-Control).
  `attachment; filename="{0}"; filename*=UTF-8''{1}`,
  'private, no-store',
  // Plain Errors on a broken invariant: answered as a 500 whose text stays in the log.
  'an on-demand report was not stored',
  'not a number of rows: {0}',
  // Labels inside server/platform/table-repository.ts's start-up error about a contract's columns.
  'sortable field',
  'searchable field',
  'filter body',
  'related list {0}',
  'activation field',
]);

/** A validation problem as the schemas word them: "must be text", "is required". */
const looksLikeProblem = (text: string) => /^[a-z]/.test(text) && /\s/.test(text);

export function scanServerTexts(root: string): ScannedText[] {
  const sources = sourceFiles(root, ['server', 'common']).map(parse);
  const shared = constants(sources, true);
  const found = new Map<string, ScannedText>();
  const add = (patterns: string[], source: ts.SourceFile, node: ts.Node) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    for (const pattern of patterns) {
      // Wholly made of other texts: nothing to word here.
      if (!/[A-Za-z]{2}/.test(pattern.replace(/\{\d+\}/g, ''))) continue;
      if (FIELD_AND_OTHER_TEXT.test(pattern) || NOT_FOR_PEOPLE.has(pattern)) continue;
      if (!found.has(pattern)) found.set(pattern, { pattern, where: `${path.relative(root, source.fileName)}:${line}` });
    }
  };
  for (const source of sources) {
    const own = constants([source], false);
    const named = new Map([...shared, ...own]);
    const zod = importsZod(source);
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const name = calleeName(node);
        const args = node.arguments ?? ts.factory.createNodeArray();
        if (ERROR_HELPERS.has(name) && args[0]) add(texts(args[0], named), source, node);
        if (name === 'HttpError' && ts.isNewExpression(node) && args[1]) add(texts(args[1], named), source, node);
        if (name === 'notFound' && ts.isCallExpression(node)) {
          const nouns = args[0] ? texts(args[0], named) : ['Record'];
          add(
            nouns.map((noun) => `${noun} not found`),
            source,
            node,
          );
        }
        if (name === 'notify') {
          for (const arg of args) {
            if (!ts.isObjectLiteralExpression(arg)) continue;
            for (const property of arg.properties) {
              if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name) && NOTICE_PROPERTIES.has(property.name.text))
                add(texts(property.initializer, named), source, property);
              if (ts.isShorthandPropertyAssignment(property) && NOTICE_PROPERTIES.has(property.name.text))
                add(texts(property.name, named), source, property);
            }
          }
        }
        if (zod) for (const arg of args) add(texts(arg, new Map()).filter(looksLikeProblem), source, arg);
      }
      if (zod && ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && TEXT_PROPERTIES.has(node.name.text))
        add(texts(node.initializer, new Map()).filter(looksLikeProblem), source, node);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...found.values()].sort((a, b) => a.where.localeCompare(b.where));
}

/** A text as the server could send it: each placeholder filled with a value of its own. */
export const sampleOf = (pattern: string) => pattern.replace(/\{(\d+)\}/g, (_, i: string) => `x${i}`);
