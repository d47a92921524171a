/**
 * A server refusal that names fields ("passwordPolicy.minLength: must be at least 8; port: must be
 * a number") as react-hook-form errors, nested the way the form's fields are, so each shows on
 * its input as well as in the alert. Parts naming no field of the form are left to the alert.
 */
export function fieldErrorsOf(message: string, fields: readonly string[]): Record<string, unknown> | undefined {
  const errors: Record<string, unknown> = {};
  for (const part of message.split('; ')) {
    const match = /^([\w.]+): (.+)$/.exec(part);
    if (!match || !fields.includes(match[1].split('.')[0])) continue;
    const path = match[1].split('.');
    let node = errors;
    for (const key of path.slice(0, -1)) {
      if (!node[key] || typeof node[key] !== 'object') node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    node[path[path.length - 1]] ??= match[2];
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}
