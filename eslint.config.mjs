import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: ['.next/**', '.next-*/**', 'node_modules/**', 'lib/generated/**', 'test-results/**', 'playwright-report/**', '.data/**', 'next-env.d.ts'],
  },
  {
    // Client code must never reach server modules or the generated Prisma runtime.
    files: ['components/**/*.{ts,tsx}', 'lib/client/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@/lib/db', '@/lib/db/*', '@/lib/generated/prisma/client', 'pg', '@electric-sql/*', 'soap'], message: 'Client code must not import server modules.' },
          ],
        },
      ],
    },
  },
];

export default config;
