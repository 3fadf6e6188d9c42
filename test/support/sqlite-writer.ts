// Child process for the SQLite concurrency test: N read-then-write transactions on one file.
import { createDatabase } from '../../db/database.ts';

const [filename, prefix, count] = process.argv.slice(2);
const db = createDatabase({ client: 'sqlite', filename });
for (let i = 0; i < Number(count); i++) {
  await db.transaction(async (trx) => {
    const row = await trx('workspaces').count({ n: '*' }).first();
    await trx('workspaces').insert({ id: `${prefix}_${i}`, name: `w${row?.n}`, kind: 'personal', created_at: i });
  });
}
await db.destroy();
