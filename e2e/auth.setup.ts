// Signs in as the bootstrap admin (ADMIN_EMAIL on the e2e server) through the real
// /sign-in page, and saves the session for every spec that browses the protected server.
import { expect, test as setup } from '@playwright/test';
import { ADMIN_STATE, E2E_ADMIN } from '../playwright.config';

setup('sign in as the e2e admin', async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(E2E_ADMIN.email);
  await page.getByLabel('Password').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/traces$/);
  await expect(page.getByTestId('account')).toContainText(`Signed in as ${E2E_ADMIN.email}`);
  await page.context().storageState({ path: ADMIN_STATE });
});
