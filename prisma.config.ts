import { defineConfig } from 'prisma/config';

// The CLI is only used for `prisma generate` here; migrations are applied by
// `npm run db:migrate` (lib/db/migrate.ts) through the driver adapter.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
