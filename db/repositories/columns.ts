// How a nullable numeric column reads, on either database: NULL stays null, anything else is a
// number (SQLite answers numbers; pg answers int8 as a number, see db/database.ts, and NUMERIC or
// an aggregate as a string).
export function nullableNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}
