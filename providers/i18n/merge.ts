/** Nested catalogues merged, later ones over earlier ones, without react-admin (the sign-in screens use it). */
export function mergeCatalogues<T extends object>(...catalogues: readonly object[]): T {
  const result: Record<string, unknown> = {};
  for (const catalogue of catalogues) {
    for (const [key, value] of Object.entries(catalogue)) {
      const before = result[key];
      result[key] = value && typeof value === 'object' && before && typeof before === 'object' ? mergeCatalogues(before, value) : value;
    }
  }
  return result as T;
}
