// Opens the embedded database at argv[2] and closes it: a second process for the lock test.
import { openDatabase } from '@/lib/db/open';

const db = await openDatabase(undefined, { dataDir: process.argv[2] });
await db.close();
